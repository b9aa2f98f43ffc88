package proxy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// An execute's harness and provider each follow the host's precedence:
// createAgent's own, then overrides of configId#label, of configId, then
// workflow.yaml; the file is read once per workflow for the run.
func TestRoutingTargetPrecedence(t *testing.T) {
	dir := t.TempDir()
	yaml := filepath.Join(dir, "workflow.yaml")
	write := func(harness string) {
		t.Helper()
		text := "name: wf\nshortDescription: s\nlongDescription: l\nagents:\n  writer:\n    harness: " + harness +
			"\n    provider: openai\n  plain:\n    model: [a/m1, b/m2]\n"
		if err := os.WriteFile(yaml, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("codex")
	route := func(harness, provider, overrides, configID, label string) routing {
		r := routing{Label: label, Workflow: agentproto.WorkflowRef{Dir: dir}, Overrides: json.RawMessage(overrides)}
		r.Config = agentTarget{ConfigID: configID, Harness: harness, Provider: provider}
		return r
	}
	var y yamlAgents
	cases := []struct {
		name              string
		r                 routing
		harness, provider string
	}{
		{"createAgent", route("opencode", "ollama", `{"agents": {"writer": {"harness": "gemini", "provider": "google"}}}`, "writer", ""), "opencode", "ollama"},
		{"label override", route("", "", `{"agents": {"writer#a": {"harness": "qwen"}, "writer": {"harness": "gemini", "provider": "ollama"}}}`, "writer", "a"), "qwen", "ollama"},
		{"config override", route("", "", `{"agents": {"writer#b": {"harness": "qwen"}, "writer": {"harness": "gemini"}}}`, "writer", "a"), "gemini", "openai"},
		{"workflow.yaml", route("", "", `null`, "writer", ""), "codex", "openai"},
		{"none named", route("", "", `null`, "plain", ""), "", ""},
		{"no config", route("", "", `null`, "", ""), "", ""},
	}
	for _, c := range cases {
		if got := c.r.target(y.target); got.Harness != c.harness || got.Provider != c.provider {
			t.Errorf("%s: %q on %q, want %q on %q", c.name, got.Harness, got.Provider, c.harness, c.provider)
		}
	}
	write("claude-code")
	if h := route("", "", `null`, "writer", "").target(y.target).Harness; h != "codex" {
		t.Errorf("after the file changed: %q, want the run's first reading, codex", h)
	}
	var fresh yamlAgents
	if h := route("", "", `null`, "writer", "").target(fresh.target).Harness; h != "claude-code" {
		t.Errorf("a new run reads %q, want claude-code", h)
	}
}

// An agent's models follow the same precedence, from a list or one string.
func TestRoutingModels(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte("name: wf\nshortDescription: s\nlongDescription: l\nagents:\n  a:\n    model: [x/one, y/two]\n  b:\n    model: z/three\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var y yamlAgents
	r := routing{Workflow: agentproto.WorkflowRef{Dir: dir}, Overrides: json.RawMessage(`{"agents": {"b": {"model": ["w/four"]}}}`)}
	for id, want := range map[string]string{"a": "x/one y/two", "b": "w/four"} {
		r.Config = agentTarget{ConfigID: id}
		if got := strings.Join(r.target(y.target).Model, " "); got != want {
			t.Errorf("%s: models %q, want %q", id, got, want)
		}
	}
	r.Config = agentTarget{ConfigID: "b", Model: agentproto.ModelList{"v/five"}}
	if got := strings.Join(r.target(y.target).Model, " "); got != "v/five" {
		t.Errorf("createAgent's model: %q", got)
	}
}
