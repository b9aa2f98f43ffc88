package agentconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/manifest"
)

// FuzzLoadWorkflow checks the agents section of any workflow.yaml: it
// loads with no problems or with problems that name the file, a field path
// and what is wrong, never both; and what loads is valid through and
// through: every configuration, encoded again as it crosses to the host,
// passes the schema again and refers only to declared MCP servers and
// known tools. The seeds are the example project's manifests
// (testdata/fuzz/FuzzLoadWorkflow holds more from the acceptance tests).
func FuzzLoadWorkflow(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", ".stratos", "workflows", "*", manifest.FileName))
	if len(files) == 0 {
		f.Fatal("no example manifests found as seeds")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(testYAML))
	f.Add([]byte("name: wf\nshortDescription: s\nlongDescription: l\nagents:\n  a:\n    structuredOutputRetries: 1.0\n    model: []\n    worktree: {enabled: true, cleanup: false}\n"))
	f.Add([]byte("name: wf\nshortDescription: s\nlongDescription: l\nagents:\n  a:\n    prompt: {template: p.hbs}\n    templateVariables: {prompt: {x: .nan}}\n"))
	v, err := builtinValidator()
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir() // one per worker: its inputs run one at a time
	file := filepath.Join(dir, manifest.FileName)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		w, problems := LoadWorkflow(v, dir)
		if (w == nil) == (len(problems) == 0) {
			t.Fatalf("workflow %v with problems %v: want exactly one of them", w, problems)
		}
		for _, p := range problems {
			if p.File != file || p.Message == "" {
				t.Fatalf("problem does not say where or what: %+v", p)
			}
		}
		if w == nil {
			return
		}
		for id, c := range w.Agents {
			checkConfig(t, v, "agents."+id, c, false)
			if problems := v.CheckReferences(c, w.MCPServers, file, "agents."+id); len(problems) > 0 {
				t.Fatalf("loaded configuration %s refers to unknown names: %v", id, problems)
			}
		}
	})
}

// FuzzResolve checks the merge of invocation overrides and createAgent
// fields over a workflow's configurations: a resolved configuration is
// valid (it passes the schema when encoded again, and its configId is one
// the workflow declares), and every failure is a configuration error.
func FuzzResolve(f *testing.F) {
	f.Add(`{"agents":{"reviewer":{"model":"openai/c","allowedTools":[]}}}`, `{"configId":"reviewer","prompt":"hi"}`, "")
	f.Add(`{"agents":{"reviewer#r1":{"effort":"high"},"bare":{"harness":"test","test":{"turns":[]}}}}`, `{"configId":"reviewer"}`, "r1")
	f.Add(`null`, `{"model":["a","b"],"templateVariables":{"prompt":{"x":1}},"worktree":{"enabled":true}}`, "")
	f.Add(`{"agents":{"x":{"configId":"y"}}}`, `{"configId":"nope"}`, "")
	f.Add(`{"agents":[]}`, `{"structuredOutputRetries":1.0}`, "")
	v, w := testWorkflow(f)
	f.Fuzz(func(t *testing.T, overrides, creation, label string) {
		c, err := v.Resolve(Sources{Workflow: w, Overrides: json.RawMessage(overrides), Creation: json.RawMessage(creation), Label: label})
		if err != nil {
			if code := agentproto.CodeOf(err); code != agentproto.CodeConfiguration {
				t.Fatalf("Resolve failed with code %q, want %q: %v", code, agentproto.CodeConfiguration, err)
			}
			return
		}
		checkConfig(t, v, "agent", c, true)
		if c.ConfigID != "" {
			if _, ok := w.Agents[c.ConfigID]; !ok {
				t.Fatalf("resolved configId %q, which the workflow does not declare", c.ConfigID)
			}
		}
	})
}

// checkConfig fails unless c, encoded as JSON, passes the schema again.
func checkConfig(t *testing.T, v *Validator, path string, c agentproto.AgentConfig, configID bool) {
	t.Helper()
	raw, err := json.Marshal(c)
	if err != nil {
		t.Fatalf("%s does not encode: %v", path, err)
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		t.Fatal(err)
	}
	if problems := v.Entry("", path, generic, configID); len(problems) > 0 {
		t.Fatalf("%s = %s fails its schema once encoded: %v", path, raw, problems)
	}
}
