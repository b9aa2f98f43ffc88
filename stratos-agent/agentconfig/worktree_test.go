package agentconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

const worktreeYAML = `name: wf
shortDescription: Test workflow.
longDescription: Test workflow.
agents:
  named:
    harness: test
    workingDirectory: repo
    worktree: {enabled: true, name: review}
  protected:
    harness: test
    worktree: {enabled: true, cleanup: false}
  plain:
    harness: test
`

func worktreeWorkflow(t *testing.T) (*Validator, *Workflow) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte(worktreeYAML), 0o644); err != nil {
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

func TestWorktreePrecedence(t *testing.T) {
	v, w := worktreeWorkflow(t)
	cases := []struct {
		name      string
		overrides string
		creation  string
		want      string // the resolved worktree field, JSON; "null" when absent
	}{
		{"yaml only", ``, `{"configId":"named"}`,
			`{"enabled":true,"name":"review"}`},
		{"no worktree anywhere", ``, `{"configId":"plain"}`,
			`null`},
		{"override adds cleanup, keeps the yaml name", `{"agents":{"named":{"worktree":{"enabled":true,"cleanup":false}}}}`, `{"configId":"named"}`,
			`{"enabled":true,"name":"review","cleanup":false}`},
		{"creation renames, keeps the override's cleanup", `{"agents":{"named":{"worktree":{"enabled":true,"cleanup":false}}}}`,
			`{"configId":"named","worktree":{"enabled":true,"name":"other"}}`,
			`{"enabled":true,"name":"other","cleanup":false}`},
		{"a higher enabled: false disables, lower fields kept but unused", ``, `{"configId":"named","worktree":{"enabled":false}}`,
			`{"enabled":false,"name":"review"}`},
		{"creation enables over yaml without worktree", ``, `{"configId":"plain","worktree":{"enabled":true,"name":"fresh"}}`,
			`{"enabled":true,"name":"fresh"}`},
		{"override enables, creation names", `{"agents":{"plain":{"worktree":{"enabled":true}}}}`, `{"configId":"plain","worktree":{"enabled":true,"name":"n"}}`,
			`{"enabled":true,"name":"n"}`},
		{"cleanup: true from a higher source replaces cleanup: false", ``, `{"configId":"protected","worktree":{"enabled":true,"cleanup":true}}`,
			`{"enabled":true,"cleanup":true}`},
		{"override for another configId is ignored", `{"agents":{"plain":{"worktree":{"enabled":true,"name":"x"}}}}`, `{"configId":"named"}`,
			`{"enabled":true,"name":"review"}`},
		{"no configId: creation only", `{"agents":{"named":{"worktree":{"enabled":true,"name":"x"}}}}`, `{"harness":"test","worktree":{"enabled":true}}`,
			`{"enabled":true}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := v.Resolve(Sources{Workflow: w, Overrides: json.RawMessage(c.overrides), Creation: json.RawMessage(c.creation)})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(got.Worktree)
			if !jsonEqual(b, json.RawMessage(c.want)) {
				t.Fatalf("worktree %s, want %s", b, c.want)
			}
		})
	}
}

// Resolving must not change the cached workflow.yaml entries: the next
// agent of the same configId starts from the file again.
func TestWorktreeMergeLeavesSourcesAlone(t *testing.T) {
	v, w := worktreeWorkflow(t)
	_, err := v.Resolve(Sources{Workflow: w, Overrides: json.RawMessage(`{"agents":{"named":{"worktree":{"enabled":false,"cleanup":false}}}}`),
		Creation: json.RawMessage(`{"configId":"named","worktree":{"enabled":true,"name":"changed"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	got := w.Agents["named"].Worktree
	if !got.Enabled || got.Name == nil || *got.Name != "review" || got.Cleanup != nil {
		b, _ := json.Marshal(got)
		t.Fatalf("workflow entry changed to %s", b)
	}
}

// TestWorktreeShapeErrors: each failing field inside worktree is a problem
// at its own path, saying what is wrong and the shape worktree must have.
func TestWorktreeShapeErrors(t *testing.T) {
	v, w := worktreeWorkflow(t)
	const shape = "; worktree must be an object {enabled: boolean, name?: string, cleanup?: boolean}"
	const name = "must be a worktree name: ASCII letters, digits, '.', '_' and '-', starting with a letter or digit, at most 100 characters, no '..', not ending in '.' or '.lock', got "
	for _, c := range []struct{ creation, want string }{
		{`{"harness":"test","worktree":{"name":"x"}}`, "createAgent.worktree.enabled: required field is missing" + shape},
		{`{"harness":"test","worktree":{"enabled":true,"name":""}}`, `createAgent.worktree.name: ` + name + `""`},
		// The worktree tool's own rules, checked where the name is written
		// (stratos build reads workflow.yaml's), not only at the first execute.
		{`{"harness":"test","worktree":{"enabled":true,"name":"fix/login"}}`, `createAgent.worktree.name: ` + name + `"fix/login"`},
		{`{"harness":"test","worktree":{"enabled":true,"name":"a..b"}}`, `createAgent.worktree.name: ` + name + `"a..b"`},
		{`{"harness":"test","worktree":{"enabled":true,"name":"review.lock"}}`, `createAgent.worktree.name: ` + name + `"review.lock"`},
		{`{"harness":"test","worktree":{"enabled":true,"name":"-x"}}`, `createAgent.worktree.name: ` + name + `"-x"`},
		{`{"harness":"test","worktree":{"enabled":"yes"}}`, "createAgent.worktree.enabled: got string, want boolean" + shape},
		{`{"harness":"test","worktree":{"enabled":true,"branch":"x"}}`, "createAgent.worktree.branch: unknown field (not in the schema)" + shape},
		{`{"harness":"test","worktree":{"enabled":true,"cleanup":"no"}}`, "createAgent.worktree.cleanup: got string, want boolean" + shape},
		{`{"harness":"test","worktree":"yes"}`, `createAgent.worktree: must be an object {enabled: boolean, name?: string, cleanup?: boolean}, got "yes" (got string, want object)`},
		{`{"harness":"test","worktree":{"enabled":"yes","name":""}}`,
			"createAgent.worktree.enabled: got string, want boolean" + shape + `; createAgent.worktree.name: ` + name + `""`},
	} {
		_, err := v.Resolve(Sources{Workflow: w, Creation: json.RawMessage(c.creation)})
		if agentproto.CodeOf(err) != agentproto.CodeConfiguration {
			t.Errorf("%s: got %v, want a configuration error", c.creation, err)
			continue
		}
		if want := "invalid createAgent: " + c.want; err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", c.creation, err, want)
		}
	}
}
