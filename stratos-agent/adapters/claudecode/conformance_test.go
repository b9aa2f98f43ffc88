package claudecode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// TestConformance runs the adapter conformance suite against the real
// claude CLI and the fake Anthropic server.
func TestConformance(t *testing.T) {
	adaptertest.Run(t, claudeFixture{})
}

// claudeFixture starts the fake Anthropic API per case and points a
// private CLI configuration at it.
type claudeFixture struct{}

func (claudeFixture) Harness() adapter.Harness { return Registration(Options{}) }

func (claudeFixture) Start(t *testing.T, s adaptertest.Script) adaptertest.Env {
	t.Helper()
	bin := os.Getenv("STRATOS_TEST_CLAUDE")
	if bin == "" {
		t.Fatal(missingCLI)
	}
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
	e := &claudeEnv{srv: srv, work: filepath.Join(dir, "work"), cfg: filepath.Join(dir, "cfg")}
	for _, d := range []string{"home", "cfg", "work"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "CLAUDECODE" || strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "CLAUDE_CODE_") || k == EnvBinary {
			continue
		}
		e.env = append(e.env, kv)
	}
	e.env = append(e.env, "HOME="+filepath.Join(dir, "home"), "CLAUDE_CONFIG_DIR="+e.cfg,
		"ANTHROPIC_BASE_URL="+srv.URL, "CLAUDE_CODE_MAX_RETRIES=1", EnvBinary+"="+bin)
	if !s.NoCredentials {
		e.env = append(e.env, "ANTHROPIC_API_KEY=sk-ant-fake-000")
	}
	return e
}

// fakeScript translates the suite's turns into the fake's script: a shell
// call is a Bash tool_use followed by the final text, a structured value
// is a StructuredOutput call (one per attempt).
func fakeScript(turns []adaptertest.Turn) map[string]any {
	var out []map[string]any
	reply := func(marker string, blocks ...map[string]any) {
		out = append(out, map[string]any{"match": map[string]any{"marker": marker}, "reply": blocks})
	}
	for _, t := range turns {
		switch {
		case t.ModelNotFound:
			out = append(out, map[string]any{"match": map[string]any{"marker": t.Marker}, "repeat": true, "error": map[string]any{"kind": "not_found"}})
		case t.Shell != nil:
			in := map[string]any{"command": t.Shell.Command, "description": "run"}
			if t.Shell.Background {
				in["run_in_background"] = true
			}
			reply(t.Marker, map[string]any{"toolUse": map[string]any{"name": "Bash", "input": in}})
			reply(t.Marker, map[string]any{"text": t.Text})
		case t.Value != nil:
			reply(t.Marker, map[string]any{"structuredOutput": t.Value})
		case t.Values != nil:
			for _, v := range t.Values {
				reply(t.Marker, map[string]any{"structuredOutput": v})
			}
		default:
			reply(t.Marker, map[string]any{"text": t.Text})
		}
	}
	return map[string]any{"turns": out}
}

type claudeEnv struct {
	srv  *fakemodel.Server
	work string
	cfg  string
	env  []string
}

func (e *claudeEnv) New(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
	return NewFactory(Options{Environ: func() []string { return e.env }})(spec, onEvent, hooks)
}

func (e *claudeEnv) Spec() adapter.Spec {
	return adapter.Spec{Name: "tester", Models: []string{"anthropic/claude-opus-4-7"}, WorkingDirectory: e.work}
}

func (e *claudeEnv) ProcessMarker() string { return "CLAUDE_CONFIG_DIR=" + e.cfg }

// Requests are the /v1/messages requests (not count_tokens or probes).
func (e *claudeEnv) Requests() []adaptertest.Request {
	var out []adaptertest.Request
	for _, r := range e.srv.Log().Entries() {
		if r.Method != "POST" || !strings.HasPrefix(r.Path, "/v1/messages") || strings.Contains(r.Path, "count_tokens") {
			continue
		}
		var body struct {
			Messages json.RawMessage `json:"messages"`
		}
		_ = json.Unmarshal(r.Body, &body)
		req := adaptertest.Request{System: r.System, Prompt: r.Prompt, Conversation: string(body.Messages)}
		for _, tr := range r.ToolResults {
			req.ToolResults = append(req.ToolResults, adaptertest.ToolResult{Content: tr.Content, IsError: tr.IsError})
		}
		out = append(out, req)
	}
	return out
}
