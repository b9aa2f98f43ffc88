package proxy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// An execute's harness follows the host's precedence: createAgent's own,
// then overrides of configId#label, of configId, then workflow.yaml; the
// file is read once per workflow for the run.
func TestRoutingHarnessPrecedence(t *testing.T) {
	dir := t.TempDir()
	yaml := filepath.Join(dir, "workflow.yaml")
	write := func(harness string) {
		t.Helper()
		text := "name: wf\nshortDescription: s\nlongDescription: l\nagents:\n  writer:\n    harness: " + harness + "\n  plain:\n    model: m\n"
		if err := os.WriteFile(yaml, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("codex")
	route := func(harness, overrides, configID, label string) routing {
		r := routing{Label: label, Workflow: agentproto.WorkflowRef{Dir: dir}, Overrides: json.RawMessage(overrides)}
		r.Config.ConfigID, r.Config.Harness = configID, harness
		return r
	}
	var y yamlHarnesses
	cases := []struct {
		name string
		r    routing
		want string
	}{
		{"createAgent", route("opencode", `{"agents": {"writer": {"harness": "gemini"}}}`, "writer", ""), "opencode"},
		{"label override", route("", `{"agents": {"writer#a": {"harness": "qwen"}, "writer": {"harness": "gemini"}}}`, "writer", "a"), "qwen"},
		{"config override", route("", `{"agents": {"writer#b": {"harness": "qwen"}, "writer": {"harness": "gemini"}}}`, "writer", "a"), "gemini"},
		{"workflow.yaml", route("", `null`, "writer", ""), "codex"},
		{"none named", route("", `null`, "plain", ""), ""},
		{"no config", route("", `null`, "", ""), ""},
	}
	for _, c := range cases {
		if got := c.r.harness(y.harness); got != c.want {
			t.Errorf("%s: harness %q, want %q", c.name, got, c.want)
		}
	}
	write("claude-code")
	if got := route("", `null`, "writer", "").harness(y.harness); got != "codex" {
		t.Errorf("after the file changed: %q, want the run's first reading, codex", got)
	}
	var fresh yamlHarnesses
	if got := route("", `null`, "writer", "").harness(fresh.harness); got != "claude-code" {
		t.Errorf("a new run reads %q, want claude-code", got)
	}
}
