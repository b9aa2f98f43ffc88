package harnessdocs

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
	"github.com/stratoscli/stratos/stratos-models/data"
)

func builtin(t *testing.T) *harnesses.Registry {
	t.Helper()
	reg, err := harnesses.New(harnesses.Builtin(adapter.Options{})...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestPackagedRulesMatchTheRegistrations: stratos-models, run on its own,
// orders candidates by the harnesses section of its provider mapping; the
// agent host sends the registrations' rules instead. Both must say the
// same, so the section is a copy of the registrations, checked here.
func TestPackagedRulesMatchTheRegistrations(t *testing.T) {
	var file struct {
		Harnesses map[string]modelsapi.HarnessRules `json:"harnesses"`
	}
	if err := json.Unmarshal(data.ProviderMapping(), &file); err != nil {
		t.Fatal(err)
	}
	want := builtin(t).Rules()
	for name, rules := range want {
		got, ok := file.Harnesses[name]
		w, _ := json.MarshalIndent(rules, "    ", "  ")
		if g, _ := json.MarshalIndent(got, "    ", "  "); !ok || !bytes.Equal(g, w) {
			t.Errorf("%s: harnesses.%s differs from the harness's registration (its Selection); the registration is the source, so the entry must read:\n    %q: %s",
				data.ProviderMappingName, name, name, w)
		}
	}
	for name := range file.Harnesses {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: harnesses.%s has no registration with selection rules", data.ProviderMappingName, name)
		}
	}
}

// TestEveryHarnessHasItsPage: each registration names its page under docs/,
// and the page exists.
func TestEveryHarnessHasItsPage(t *testing.T) {
	for _, h := range builtin(t).All() {
		if h.Docs.Page == "" || h.Title == "" {
			t.Errorf("harness %s: registration without Docs.Page or Title", h.Name)
			continue
		}
		if _, err := os.Stat(filepath.Join("..", "..", "..", "docs", h.Docs.Page)); err != nil {
			t.Errorf("harness %s: %v", h.Name, err)
		}
	}
}
