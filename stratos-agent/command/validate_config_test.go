package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/agentconfig"
)

// An invocation's overrides are checked as the host checks them when it
// creates an agent: the schema, references to MCP servers, test scripts;
// its decision overrides as a decision checks that layer on its own
// (a model without a provider is left to the other layers).
func TestOverridesProblemsAreTheHostsChecks(t *testing.T) {
	dir := t.TempDir()
	manifest := "name: w\nshortDescription: s\nlongDescription: l\nmcp:\n  servers:\n    github: {}\nagents:\n  a:\n    harness: test\n"
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := builtinValidator()
	if err != nil {
		t.Fatal(err)
	}
	wf, problems := agentconfig.LoadWorkflow(v, dir)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	valid := `{"agents":{"a":{"model":"x/y","allowedMcps":["github"],"test":{"turns":[{"reply":"r"}]}}},"decision":{"model":"qwen3:8b","script":[{"when":{"kind":"verdict"},"answer":"yes"}]}}`
	if got := overridesProblems(v, wf, dir, json.RawMessage(valid)); len(got) != 0 {
		t.Errorf("valid overrides: %v", got)
	}
	bad := `{"agents":{"a":{"bogus":1,"model":5},"b":{"allowedMcps":["jira"]},"c":{"test":{"turns":[{"replied":"x"}]}}},
		"decision":{"script":[{"answer":"a"},{"when":{"kind":"verdict"},"answer":"maybe"}]}}`
	var paths []string
	for _, p := range overridesProblems(v, wf, dir, json.RawMessage(bad)) {
		paths = append(paths, p.Path)
	}
	want := []string{"overrides.agents.a.bogus", "overrides.agents.a.model", "overrides.agents.b.allowedMcps", "overrides.agents.c.test", "overrides.decision.script"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("problems at %v, want %v", paths, want)
	}
	decision := overridesProblems(v, wf, dir, json.RawMessage(`{"decision":{"k":1}}`))
	if len(decision) != 1 || decision[0].Path != "overrides.decision.k" || decision[0].Message != "unknown field (known: provider, model, baseUrl, samples, retries, timeoutMs, temperature, seed, reasons, script)" {
		t.Errorf("unknown decision field: %v", decision)
	}
	if got := overridesProblems(v, wf, dir, nil); got != nil {
		t.Errorf("no overrides: %v", got)
	}
}
