package agentconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

const testYAML = `name: wf
shortDescription: Test workflow.
longDescription: Test workflow.
mcp:
  servers:
    github: {}
    slack: {}
agents:
  reviewer:
    harness: codex
    model: [openai/a, openai/b]
    effort: low
    systemPrompt: {file: prompts/reviewer.md}
    allowedMcps: [github]
    allowedTools: [read, grep]
    disallowedTools: [shell]
    workingDirectory: packages/backend
    templateVariables:
      systemPrompt: {language: TypeScript, focus: correctness, list: [1, 2]}
      prompt: {tone: kind}
  bare:
    model: openai/solo
`

func testWorkflow(t testing.TB) (*Validator, *Workflow) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte(testYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := builtinValidator()
	if err != nil {
		t.Fatal(err)
	}
	w, problems := LoadWorkflow(v, dir)
	if len(problems) > 0 {
		t.Fatalf("LoadWorkflow: %v", problems)
	}
	return v, w
}

func TestPrecedence(t *testing.T) {
	v, w := testWorkflow(t)
	cases := []struct {
		name      string
		overrides string
		creation  string
		want      string // JSON subset of the resolved configuration
	}{
		{"yaml only", ``, `{"configId":"reviewer"}`,
			`{"harness":"codex","model":["openai/a","openai/b"],"effort":"low","allowedMcps":["github"],"allowedTools":["read","grep"],"disallowedTools":["shell"],"workingDirectory":"packages/backend"}`},
		{"override one field keeps the others", `{"agents":{"reviewer":{"effort":"max"}}}`, `{"configId":"reviewer"}`,
			`{"harness":"codex","model":["openai/a","openai/b"],"effort":"max"}`},
		{"override adds an absent field", `{"agents":{"bare":{"harness":"opencode"}}}`, `{"configId":"bare"}`,
			`{"harness":"opencode","model":["openai/solo"]}`},
		{"creation beats override beats yaml", `{"agents":{"reviewer":{"harness":"opencode","effort":"high"}}}`, `{"configId":"reviewer","harness":"test"}`,
			`{"harness":"test","effort":"high"}`},
		{"override for another configId is ignored", `{"agents":{"bare":{"effort":"high"}}}`, `{"configId":"reviewer"}`,
			`{"effort":"low"}`},
		{"no configId: overrides do not apply", `{"agents":{"reviewer":{"effort":"high"}}}`, `{"harness":"test"}`,
			`{"harness":"test"}`},
		{"a string model is a list of one", ``, `{"configId":"reviewer","model":"openai/c"}`,
			`{"model":["openai/c"]}`},
		{"supplied list replaces", `{"agents":{"reviewer":{"allowedTools":["read"]}}}`, `{"configId":"reviewer"}`,
			`{"allowedTools":["read"],"disallowedTools":["shell"]}`},
		{"empty list means none", ``, `{"configId":"reviewer","allowedMcps":[],"disallowedTools":[]}`,
			`{"allowedMcps":[],"disallowedTools":[],"allowedTools":["read","grep"]}`},
		{"templateVariables merge per variable", `{"agents":{"reviewer":{"templateVariables":{"systemPrompt":{"focus":"security","extra":1}}}}}`,
			`{"configId":"reviewer","templateVariables":{"systemPrompt":{"focus":"performance","list":[3]}}}`,
			`{"templateVariables":{"systemPrompt":{"language":"TypeScript","focus":"performance","list":[3],"extra":1},"prompt":{"tone":"kind"}}}`},
		{"prompt variables merge separately", ``, `{"configId":"reviewer","templateVariables":{"prompt":{"x":"y"}}}`,
			`{"templateVariables":{"systemPrompt":{"language":"TypeScript","focus":"correctness","list":[1,2]},"prompt":{"tone":"kind","x":"y"}}}`},
		{"system prompt replaced whole", ``, `{"configId":"reviewer","systemPrompt":"Be brief."}`,
			`{"systemPrompt":"Be brief."}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := v.Resolve(Sources{Workflow: w, Overrides: json.RawMessage(c.overrides), Creation: json.RawMessage(c.creation)})
			if err != nil {
				t.Fatal(err)
			}
			assertSubset(t, got, c.want)
		})
	}
}

// assertSubset checks that every field of want has the same JSON value in got.
func assertSubset(t *testing.T, got agentproto.AgentConfig, want string) {
	t.Helper()
	b, _ := json.Marshal(got)
	var g, w map[string]json.RawMessage
	_ = json.Unmarshal(b, &g)
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	for k, wv := range w {
		if !jsonEqual(g[k], wv) {
			t.Errorf("%s: got %s, want %s (resolved %s)", k, g[k], wv, b)
		}
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}

func TestResolveErrors(t *testing.T) {
	v, w := testWorkflow(t)
	cases := []struct {
		name, overrides, creation, code, contains string
	}{
		{"unknown configId", ``, `{"configId":"nope"}`, agentproto.CodeConfiguration, `unknown configId "nope"`},
		{"unknown MCP server", ``, `{"harness":"test","allowedMcps":["jira"]}`, agentproto.CodeConfiguration, `unknown MCP server "jira"`},
		{"unknown tool", ``, `{"harness":"test","allowedTools":["Bash"]}`, agentproto.CodeConfiguration, `did you mean "shell"`},
		{"bad harness", ``, `{"harness":"claude"}`, agentproto.CodeConfiguration, `createAgent.harness: must be one of`},
		{"bad override field", `{"agents":{"reviewer":{"modle":"x"}}}`, `{"configId":"reviewer"}`, agentproto.CodeConfiguration, `overrides.agents.reviewer.modle: unknown field`},
		{"configId in override", `{"agents":{"reviewer":{"configId":"x"}}}`, `{"configId":"reviewer"}`, agentproto.CodeConfiguration, `unknown field "configId"`},
		{"acp without its harness", ``, `{"harness":"test","acp":{"command":"agent"}}`, agentproto.CodeConfiguration, `agent.acp: only harness acp runs an ACP agent; the agent's harness is "test"`},
		{"acp without a harness", ``, `{"model":"openai/x","acp":{"command":"agent"}}`, agentproto.CodeConfiguration, `agent.acp: only harness acp runs an ACP agent; the agent's harness is none`},
		{"acp without command", ``, `{"harness":"acp","acp":{"args":["--acp"]}}`, agentproto.CodeConfiguration, `createAgent.acp.command: required field is missing`},
		{"acp unknown key", ``, `{"harness":"acp","acp":{"command":"a","cmd":"b"}}`, agentproto.CodeConfiguration, `createAgent.acp.cmd: unknown field`},
		{"acp empty name", ``, `{"harness":"acp","acp":""}`, agentproto.CodeConfiguration, `createAgent.acp`},
		{"acp neither name nor object", ``, `{"harness":"acp","acp":7}`, agentproto.CodeConfiguration, `createAgent.acp`},
		{"acp name without its harness", ``, `{"harness":"test","acp":"qwen"}`, agentproto.CodeConfiguration, `agent.acp: only harness acp runs an ACP agent`},
		{"wrong type", ``, `{"model":5}`, agentproto.CodeConfiguration, `createAgent.model: must be a model ID string or an ordered array`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := v.Resolve(Sources{Workflow: w, Overrides: json.RawMessage(c.overrides), Creation: json.RawMessage(c.creation)})
			if agentproto.CodeOf(err) != c.code || !strings.Contains(err.Error(), c.contains) {
				t.Fatalf("got %v (code %s), want code %s containing %q", err, agentproto.CodeOf(err), c.code, c.contains)
			}
		})
	}
}

func TestSectionProblemsNameFileAndPath(t *testing.T) {
	v, err := builtinValidator()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	yaml := `name: wf
shortDescription: x
longDescription: x
agents:
  a:
    harness: test
    effort: 3
    allowedMcps: [github]
    worktree: {name: "", cleanup: no}
  b:
    systemPrompt: {file: a.md, template: b.hbs}
    disallowedTools: [Bash]
  c: [not, an, object]
`
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	_, problems := LoadWorkflow(v, dir)
	var got []string
	for _, p := range problems {
		if p.File != filepath.Join(dir, "workflow.yaml") {
			t.Errorf("problem without the file: %+v", p)
		}
		got = append(got, p.Path)
	}
	// Every failing field, also inside one: worktree's three.
	want := []string{"agents.a.effort", "agents.a.worktree.cleanup", "agents.a.worktree.enabled", "agents.a.worktree.name", "agents.b.systemPrompt", "agents.c"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("paths %v, want %v (%v)", got, want, problems)
	}
	// Reference checks run once the shapes are right.
	yaml2 := strings.Replace(strings.Replace(strings.Replace(strings.Replace(yaml, "effort: 3", "effort: low", 1),
		`worktree: {name: "", cleanup: no}`, "worktree: {enabled: false}", 1), "{file: a.md, template: b.hbs}", "{file: a.md}", 1), "  c: [not, an, object]\n", "", 1)
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte(yaml2), 0o644); err != nil {
		t.Fatal(err)
	}
	_, problems = LoadWorkflow(v, dir)
	got = nil
	for _, p := range problems {
		got = append(got, p.Path)
	}
	want = []string{"agents.a.allowedMcps", "agents.b.disallowedTools"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("paths %v, want %v (%v)", got, want, problems)
	}
}

func TestLabelOverridesApplyToTheirLabelOnly(t *testing.T) {
	v, w := testWorkflow(t)
	overrides := json.RawMessage(`{"agents":{"reviewer":{"effort":"high"},"reviewer#r2":{"effort":"max","model":"openai/c"}}}`)
	for label, want := range map[string]string{"": "high openai/a", "r1": "high openai/a", "r2": "max openai/c"} {
		got, err := v.Resolve(Sources{Workflow: w, Overrides: overrides, Creation: json.RawMessage(`{"configId":"reviewer"}`), Label: label})
		if err != nil {
			t.Fatal(err)
		}
		if s := *got.Effort + " " + (*got.Model)[0]; s != want {
			t.Errorf("label %q: got %s, want %s", label, s, want)
		}
	}
}
