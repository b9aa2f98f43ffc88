package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestDocumentedScriptsLoad loads every script of docs/harness-test.md's
// YAML examples: the documented format is the one the harness accepts.
func TestDocumentedScriptsLoad(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "harness-test.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	scripts := 0
	for _, b := range blocks {
		var example struct {
			Agents map[string]struct {
				Test any `yaml:"test"`
			} `yaml:"agents"`
		}
		if err := yaml.Unmarshal(b[1], &example); err != nil {
			t.Fatalf("%v in\n%s", err, b[1])
		}
		for name, a := range example.Agents {
			raw, err := json.Marshal(a.Test)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := LoadScript(raw, t.TempDir()); err != nil {
				t.Errorf("agent %s: %v", name, err)
			}
			scripts++
		}
	}
	if scripts < 2 {
		t.Fatalf("found %d scripts in docs/harness-test.md, want the turn and the case examples", scripts)
	}
}
