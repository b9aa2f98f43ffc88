package harnessgen

import (
	"bytes"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated files")

// root is the repository's root, from this package's directory.
const root = "../../.."

// TestCommittedFilesAreCurrent fails when a checked-in copy of the harness
// names is not what the registry says: run scripts/gen-docs (then
// scripts/build-sdk for the SDK's dist) and commit.
func TestCommittedFilesAreCurrent(t *testing.T) {
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range slices.Sorted(maps.Keys(files)) {
		want := files[path]
		full := filepath.Join(root, path)
		if *update {
			if err := os.WriteFile(full, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(full)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: the built-in harnesses (stratos-agent/harnesses) changed; run scripts/gen-docs and scripts/build-sdk, and commit", path)
		}
	}
}

// The SDK's type is the union of the registry's names.
func TestTypeScript(t *testing.T) {
	got := string(TypeScript([]string{"claude-code", "test"}))
	if want := "\nexport type HarnessName = \"claude-code\" | \"test\";\n"; !strings.HasSuffix(got, want) {
		t.Errorf("got:\n%s\nwant it to end with:\n%s", got, want)
	}
}

const fixture = `{
  "$defs": {"other": {"properties": {"harness": {"const": "kept"}}}},
  "properties": {
    "configId": {"type": "string"},
    "harness": {
      "description": "one of \"old\"",
      "enum": ["old"]
    },
    "provider": {"type": "string"}
  },
  "required": []
}
`

// Only the top-level properties.harness changes; every other byte stays.
func TestSpliceSchema(t *testing.T) {
	got, err := SpliceSchema([]byte(fixture), []string{"claude-code", "x\"y"})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(fixture, `{
      "description": "one of \"old\"",
      "enum": ["old"]
    }`, `{
      "description": "one of \"claude-code\", \"x\\\"y\"",
      "enum": ["claude-code", "x\"y"]
    }`, 1)
	if string(got) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	var s struct {
		Properties map[string]struct {
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(got, &s); err != nil {
		t.Fatalf("the spliced schema is not JSON: %v", err)
	}
	if e := s.Properties["harness"].Enum; !slices.Equal(e, []string{"claude-code", "x\"y"}) {
		t.Errorf("enum %q", e)
	}
}

func TestSpliceSchemaWithoutHarness(t *testing.T) {
	for _, schema := range []string{`{"properties": {"model": {}}}`, `{"title": "t"}`, `[]`, `{"properties": [`} {
		if _, err := SpliceSchema([]byte(schema), []string{"a"}); err == nil {
			t.Errorf("%s: spliced", schema)
		}
	}
}
