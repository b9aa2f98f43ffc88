package pkgjson

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
)

func TestEnsureModuleCreatesMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	changed, err := EnsureModule(path)
	if err != nil || !changed {
		t.Fatalf("EnsureModule = %v, %v; want true, nil", changed, err)
	}
	assertFile(t, path, "{\n  \"type\": \"module\"\n}\n")
}

func TestEnsureModuleInsertsTypeAndKeepsTheRest(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"indented",
			"{\n  \"name\": \"wf\",\n  \"dependencies\": {\"lodash\": \"4.17.21\"},\n  \"n\": 1.50\n}\n",
			"{\n  \"type\": \"module\",\n  \"name\": \"wf\",\n  \"dependencies\": {\"lodash\": \"4.17.21\"},\n  \"n\": 1.50\n}\n"},
		{"tabs", "{\n\t\"name\": \"wf\"\n}", "{\n\t\"type\": \"module\",\n\t\"name\": \"wf\"\n}"},
		{"one line", `{"name":"wf"}`, `{"type": "module", "name":"wf"}`},
		{"empty object", "{}\n", "{\n  \"type\": \"module\"\n}\n"},
		{"empty object over lines", "{\n}\n", "{\n  \"type\": \"module\"\n}\n"},
		{"crlf", "{\r\n  \"name\": \"wf\"\r\n}\r\n", "{\r\n  \"type\": \"module\",\r\n  \"name\": \"wf\"\r\n}\r\n"},
		{"nested type is not the package type", "{\n  \"exports\": {\"type\": \"commonjs\"}\n}\n",
			"{\n  \"type\": \"module\",\n  \"exports\": {\"type\": \"commonjs\"}\n}\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			if err := os.WriteFile(path, []byte(c.in), 0o640); err != nil {
				t.Fatal(err)
			}
			changed, err := EnsureModule(path)
			if err != nil || !changed {
				t.Fatalf("EnsureModule = %v, %v; want true, nil", changed, err)
			}
			assertFile(t, path, c.want)
			var doc map[string]any
			if err := json.Unmarshal([]byte(c.want), &doc); err != nil || doc["type"] != "module" {
				t.Fatalf("result is not a module package.json: %v %v", doc, err)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
				t.Errorf("mode after rewrite = %v, %v; want 0640 kept", fi.Mode().Perm(), err)
			}
		})
	}
}

func TestEnsureModuleLeavesModulePackagesAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	in := "{ \"name\":\"wf\",   \"type\" : \"module\" }"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	changed, err := EnsureModule(path)
	if err != nil || changed {
		t.Fatalf("EnsureModule = %v, %v; want false, nil", changed, err)
	}
	assertFile(t, path, in)
}

func TestEnsureModuleRejects(t *testing.T) {
	cases := []struct{ name, in, code, inMessage string }{
		{"commonjs", `{"name":"wf","type":"commonjs"}`, "package_commonjs", `"type": "commonjs"`},
		{"last type wins", `{"type":"module","type":"commonjs"}`, "package_commonjs", "commonjs"},
		{"other type", `{"type":"esm"}`, "package_type_invalid", `"esm"`},
		{"type not a string", `{"type":1}`, "package_type_invalid", `"type" is 1`},
		{"invalid json", `{"name":`, "package_json_invalid", "not a valid package.json"},
		{"array", `["type"]`, "package_json_invalid", "not a JSON object"},
		{"trailing data", `{} {}`, "package_json_invalid", "after the JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			if err := os.WriteFile(path, []byte(c.in), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := EnsureModule(path)
			var ce *clierr.Error
			if !errors.As(err, &ce) || ce.Code != c.code {
				t.Fatalf("EnsureModule error = %v, want code %s", err, c.code)
			}
			if !strings.Contains(ce.Message, path) || !strings.Contains(ce.Message, c.inMessage) {
				t.Errorf("message %q should name %s and contain %q", ce.Message, path, c.inMessage)
			}
			assertFile(t, path, c.in) // never overwritten
		})
	}
}

func assertFile(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s =\n%q\nwant\n%q", path, got, want)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only %s (no temp files left)", len(entries), FileName)
	}
}
