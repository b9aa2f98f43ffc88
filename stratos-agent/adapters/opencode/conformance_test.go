package opencode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
)

// TestConformance runs the adapter conformance suite against the real
// `opencode serve` with OpenCode's openai provider pointed at the fake
// Responses API through OPENAI_BASE_URL.
func TestConformance(t *testing.T) {
	adaptertest.Run(t, opencodeFixture{})
}

type opencodeFixture struct{}

func (opencodeFixture) Harness() adapter.Harness { return Registration(Options{}) }

func (opencodeFixture) Start(t *testing.T, s adaptertest.Script) adaptertest.Env {
	t.Helper()
	bin := opencodeBin(t)
	raw, err := json.Marshal(fakeScript(s.Turns))
	if err != nil {
		t.Fatal(err)
	}
	script, err := fakemodel.ParseScript(raw)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(script, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	dir := t.TempDir()
	e := &opencodeEnv{t: t, srv: srv, work: filepath.Join(dir, "work"), marker: "STRATOS_CONFORMANCE_RUN=" + dir,
		model: "openai/gpt-4.1"}
	for _, turn := range s.Turns {
		if turn.ModelNotFound {
			// A refused model is one OpenCode's provider list lacks (and
			// the fake refuses too): the adapter finds it before the first
			// prompt. (OpenCode retries an upstream 404 from OpenAI for
			// about a minute before it reports it; provider_test.go covers
			// that path.)
			e.model = "openai/gpt-missing-404"
		}
	}
	for _, d := range []string{"home", "work"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, "home"), EnvBinary + "=" + bin,
		"OPENAI_BASE_URL=" + srv.URL + "/v1", e.marker}
	if !s.NoCredentials {
		e.env = append(e.env, "OPENAI_API_KEY=sk-fake-000")
	}
	return e
}

// fakeScript translates the suite's turns: a shell command is a call of
// OpenCode's bash tool followed by the final text, a structured value a
// call of the StructuredOutput tool OpenCode offers for a json_schema
// format.
func fakeScript(turns []adaptertest.Turn) map[string]any {
	var out []map[string]any
	reply := func(marker string, blocks ...map[string]any) {
		out = append(out, map[string]any{"match": map[string]any{"marker": marker}, "reply": blocks})
	}
	tool := func(name string, input any) map[string]any {
		return map[string]any{"toolUse": map[string]any{"name": name, "input": input}}
	}
	for _, t := range turns {
		switch {
		case t.ModelNotFound:
			out = append(out, map[string]any{"match": map[string]any{"marker": t.Marker}, "repeat": true, "error": map[string]any{"kind": "not_found"}})
		case t.Shell != nil:
			reply(t.Marker, tool("bash", map[string]any{"command": t.Shell.Command, "description": "run the command"}))
			reply(t.Marker, map[string]any{"text": t.Text})
		case t.Value != nil:
			reply(t.Marker, tool("StructuredOutput", t.Value))
		case t.Values != nil:
			for _, v := range t.Values {
				reply(t.Marker, tool("StructuredOutput", v))
			}
		default:
			reply(t.Marker, map[string]any{"text": t.Text})
		}
	}
	return map[string]any{"turns": out}
}

type opencodeEnv struct {
	t      *testing.T
	srv    *fakemodel.Server
	work   string
	marker string
	env    []string
	model  string
}

func (e *opencodeEnv) New(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
	return NewFactory(Options{Log: testLog(e.t), Environ: func() []string { return e.env }, Catalog: fixedCatalog{provider: "openai"},
		MCPServers: func(string, []string) ([]mcpconfig.Server, error) { return nil, nil }})(spec, onEvent, hooks)
}

func (e *opencodeEnv) Spec() adapter.Spec {
	return adapter.Spec{Name: "tester", Models: []string{e.model}, WorkingDirectory: e.work}
}

func (e *opencodeEnv) ProcessMarker() string { return e.marker }

// Requests are the Responses API requests; Conversation is every input
// item except the system and developer messages (the instructions).
func (e *opencodeEnv) Requests() []adaptertest.Request {
	var out []adaptertest.Request
	for _, r := range e.srv.Log().Entries() {
		if r.API != fakemodel.APIResponses {
			continue
		}
		var body struct {
			Input []json.RawMessage `json:"input"`
		}
		_ = json.Unmarshal(r.Body, &body)
		var conv []string
		for _, it := range body.Input {
			var m struct {
				Role string `json:"role"`
			}
			if json.Unmarshal(it, &m) == nil && (m.Role == "developer" || m.Role == "system") {
				continue
			}
			conv = append(conv, string(it))
		}
		req := adaptertest.Request{System: r.System, Prompt: r.Prompt, Conversation: strings.Join(conv, "\n")}
		for _, tr := range r.ToolResults {
			req.ToolResults = append(req.ToolResults, adaptertest.ToolResult{Content: tr.Content, IsError: tr.IsError})
		}
		out = append(out, req)
	}
	return out
}
