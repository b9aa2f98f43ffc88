package invocation

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
)

func TestReadInput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "in.json")
	if err := os.WriteFile(file, []byte("{\n  \"a\": [1, 2]\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, value, stdin, want string
	}{
		{"none means an empty object", "", "", `{}`},
		{"literal", `{"a": 1}`, "", `{"a":1}`},
		{"file", "@" + file, "", `{"a":[1,2]}`},
		{"stdin", "-", "  {\"b\": true}\n", `{"b":true}`},
		{"any JSON value (the schema judges it)", `[1]`, "", `[1]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadInput(context.Background(), c.value, strings.NewReader(c.stdin))
			if err != nil || string(got) != c.want {
				t.Fatalf("ReadInput(%q) = %s, %v; want %s", c.value, got, err, c.want)
			}
		})
	}
}

func TestReadInputErrors(t *testing.T) {
	cases := []struct {
		name, value, stdin string
		inMessage          []string
	}{
		{"malformed", `{"a":`, "", []string{"--input is not valid JSON", "at byte 5"}},
		{"trailing data", `{} {}`, "", []string{"--input is not valid JSON"}},
		{"missing file", "@/nonexistent/in.json", "", []string{"--input @/nonexistent/in.json", "no such file"}},
		{"empty stdin", "-", " \n", []string{"--input -: stdin is empty"}},
		{"malformed stdin", "-", "{", []string{"--input - (stdin) is not valid JSON"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadInput(context.Background(), c.value, strings.NewReader(c.stdin))
			assertUsage(t, err, runapi.CodeInputInvalid, c.inMessage)
		})
	}
}

func TestReadOverrides(t *testing.T) {
	for _, value := range []string{
		`{}`,
		`null`,
		`{"agents":{"writer":{"effort":"max"}}}`,
		`{"agents":{},"decision":{"budget":3}}`,
	} {
		if _, err := ReadOverrides(context.Background(), value); err != nil {
			t.Errorf("ReadOverrides(%s): %v", value, err)
		}
	}
	if got, err := ReadOverrides(context.Background(), ""); got != nil || err != nil {
		t.Errorf(`ReadOverrides("") = %s, %v; want nil, nil`, got, err)
	}
	got, err := ReadOverrides(context.Background(), `{ "decision": { "a": 1 } }`)
	if err != nil || string(got) != `{"decision":{"a":1}}` {
		t.Errorf("ReadOverrides compacts: got %s, %v", got, err)
	}
}

func TestReadOverridesErrors(t *testing.T) {
	cases := []struct{ value, want string }{
		{`[]`, "must be an object with optional fields agents and decision"},
		{`{"model":"x"}`, `unknown field "model" (allowed: agents, decision)`},
		{`{"agents":[]}`, `"agents" must be an object mapping agent configuration ids to objects`},
		{`{"agents":{"a":{},"b":"opus"}}`, `"agents.b" must be an object of agent settings`},
		{`{"agents":null}`, `"agents" must be an object`},
		{`{"decision":1}`, `"decision" must be an object`},
		{`{"agents":`, "--overrides is not valid JSON"},
		{`@/nonexistent/o.json`, "no such file"},
	}
	for _, c := range cases {
		t.Run(c.value, func(t *testing.T) {
			_, err := ReadOverrides(context.Background(), c.value)
			assertUsage(t, err, runapi.CodeOverridesInvalid, []string{c.want})
		})
	}
}

func assertUsage(t *testing.T, err error, code string, inMessage []string) {
	t.Helper()
	ce := clierr.As(err)
	if err == nil || ce.Code != code || ce.Exit != clierr.ExitUsage {
		t.Fatalf("error = %v (code %s, exit %d); want code %s, exit 2", err, ce.Code, ce.Exit, code)
	}
	for _, want := range inMessage {
		if !strings.Contains(ce.Message, want) {
			t.Errorf("message %q lacks %q", ce.Message, want)
		}
	}
}

func TestCheckOverrideTargetsNamesUnknownAndKnownIDs(t *testing.T) {
	agents := map[string]any{"writer": map[string]any{}, "reviewer": nil}
	if err := CheckOverrideTargets(json.RawMessage(`{"agents":{"writer":{"effort":"low"}}}`), "w", agents); err != nil {
		t.Fatalf("a known id: %v", err)
	}
	if err := CheckOverrideTargets(nil, "w", nil); err != nil {
		t.Fatalf("no overrides: %v", err)
	}
	err := CheckOverrideTargets(json.RawMessage(`{"agents":{"writter":{},"writer":{}}}`), "w", agents)
	ce := clierr.As(err)
	if ce == nil || ce.Exit != clierr.ExitUsage || ce.Code != runapi.CodeOverridesInvalid ||
		!strings.Contains(ce.Message, "writter") || !strings.Contains(ce.Message, "known: reviewer, writer") {
		t.Fatalf("error %v", err)
	}
	err = CheckOverrideTargets(json.RawMessage(`{"agents":{"x":{}}}`), "w", nil)
	if err == nil || !strings.Contains(err.Error(), "known: none") {
		t.Fatalf("no agents section: %v", err)
	}
}
