package harnesses_test

import (
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapters/claudecode"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
)

// A caller changing the rules it got changes nothing in the registrations.
func TestRulesAreACopyTheCallerOwns(t *testing.T) {
	reg, err := harnesses.New(harnesses.Builtin(adapter.Options{})...)
	if err != nil {
		t.Fatal(err)
	}
	got := reg.Rules()["claude-code"]
	got.Creators[0] = "changed"
	got.Providers["amazon-bedrock"].Env["CLAUDE_CODE_USE_BEDROCK"] = "changed"
	got.Providers["anthropic"].Note = "changed"
	delete(got.Providers, "google-vertex-anthropic")
	again := reg.Rules()["claude-code"]
	if again.Creators[0] != "anthropic" || again.Providers["amazon-bedrock"].Env["CLAUDE_CODE_USE_BEDROCK"] != "1" ||
		again.Providers["anthropic"].Note == "changed" || again.Providers["google-vertex-anthropic"] == nil {
		t.Errorf("the registry's rules changed: %+v", again)
	}
	if claudecode.Selection.Creators[0] != "anthropic" || claudecode.Selection.Providers["amazon-bedrock"].Env["CLAUDE_CODE_USE_BEDROCK"] != "1" {
		t.Errorf("the package's rules changed: %+v", claudecode.Selection)
	}
}
