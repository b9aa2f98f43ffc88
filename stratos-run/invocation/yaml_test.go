package invocation

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/runapi"
)

func TestReadOverridesFromYAMLFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"o.yaml", "o.YML"} {
		path := filepath.Join(dir, name)
		yaml := "# test overrides\nagents:\n  judge:\n    harness: test\n    structuredOutputRetries: 2\n    test:\n      turns:\n        - value: {approved: true}\ndecision: {budget: 3}\n"
		if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadOverrides(context.Background(), "@"+path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := `{"agents":{"judge":{"harness":"test","structuredOutputRetries":2,"test":{"turns":[{"value":{"approved":true}}]}}},"decision":{"budget":3}}`
		if string(got) != want {
			t.Errorf("%s: got %s\nwant %s", name, got, want)
		}
	}
}

func TestReadOverridesYAMLErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ name, text, want string }{
		{"syntax.yaml", "agents: [unclosed\n", "is not a valid YAML document"},
		{"empty.yaml", "", "the file is empty"},
		{"two.yaml", "agents: {}\n---\ndecision: {}\n", "more than one document"},
		{"keys.yaml", "agents:\n  {a: 1}: {}\n", "invalid map key"},
		{"shape.yaml", "model: opus\n", `unknown field "model" (allowed: agents, decision)`},
		// A .json file stays JSON: YAML syntax in it is a JSON error.
		{"o.json", "agents: {}\n", "is not valid JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadOverrides(context.Background(), "@"+path)
			assertUsage(t, err, runapi.CodeOverridesInvalid, []string{"--overrides @" + path, c.want})
		})
	}
}
