package agentconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

func TestStructuredOutputRetriesPrecedence(t *testing.T) {
	v, w := testWorkflow(t)
	cases := []struct{ name, overrides, creation, want string }{
		{"absent", ``, `{"configId":"reviewer"}`, `{}`},
		{"override", `{"agents":{"reviewer":{"structuredOutputRetries":2}}}`, `{"configId":"reviewer"}`, `{"structuredOutputRetries":2,"effort":"low"}`},
		{"creation beats override", `{"agents":{"reviewer":{"structuredOutputRetries":2}}}`, `{"configId":"reviewer","structuredOutputRetries":0}`, `{"structuredOutputRetries":0}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := v.Resolve(Sources{Workflow: w, Overrides: json.RawMessage(c.overrides), Creation: json.RawMessage(c.creation)})
			if err != nil {
				t.Fatal(err)
			}
			if c.want == `{}` && got.StructuredOutputRetries != nil {
				t.Fatalf("structuredOutputRetries = %d, want absent", *got.StructuredOutputRetries)
			}
			assertSubset(t, got, c.want)
		})
	}
}

func TestStructuredOutputRetriesInvalid(t *testing.T) {
	v, w := testWorkflow(t)
	cases := []struct{ name, overrides, creation, contains string }{
		{"negative", ``, `{"harness":"test","structuredOutputRetries":-1}`, `createAgent.structuredOutputRetries: must be an integer from 0 to 10`},
		{"too many", `{"agents":{"reviewer":{"structuredOutputRetries":11}}}`, `{"configId":"reviewer"}`, `overrides.agents.reviewer.structuredOutputRetries: must be an integer from 0 to 10`},
		{"fraction", ``, `{"harness":"test","structuredOutputRetries":1.5}`, `structuredOutputRetries: must be an integer`},
		{"string", ``, `{"harness":"test","structuredOutputRetries":"2"}`, `structuredOutputRetries: must be an integer`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := v.Resolve(Sources{Workflow: w, Overrides: json.RawMessage(c.overrides), Creation: json.RawMessage(c.creation)})
			if agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), c.contains) {
				t.Fatalf("got %v (code %s), want a configuration error containing %q", err, agentproto.CodeOf(err), c.contains)
			}
		})
	}
}

func TestStructuredOutputRetriesInWorkflowYAML(t *testing.T) {
	v, err := builtinValidator()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	yaml := "name: wf\nshortDescription: x\nlongDescription: x\nagents:\n  ok:\n    harness: test\n    structuredOutputRetries: 3\n  bad:\n    harness: test\n    structuredOutputRetries: many\n"
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	_, problems := LoadWorkflow(v, dir)
	if len(problems) != 1 || problems[0].Path != "agents.bad.structuredOutputRetries" || problems[0].File != filepath.Join(dir, "workflow.yaml") {
		t.Fatalf("problems %v, want one for agents.bad.structuredOutputRetries in %s", problems, filepath.Join(dir, "workflow.yaml"))
	}
	if !strings.Contains(problems[0].Message, "must be an integer from 0 to 10") {
		t.Errorf("message %q does not say what is expected", problems[0].Message)
	}
}
