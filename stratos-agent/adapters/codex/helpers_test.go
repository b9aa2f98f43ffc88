package codex

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
)

// codexBin is the real CLI under test: $STRATOS_TEST_CODEX, which
// scripts/prepare-test-cache sets to the native binary of the pinned
// @openai/codex it installs.
func codexBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("STRATOS_TEST_CODEX")
	if bin == "" {
		t.Fatal("STRATOS_TEST_CODEX is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which installs the pinned @openai/codex and sets it")
	}
	return bin
}

// fixedCatalog answers every model list with one candidate per model, the
// native ID being the model ID's last segment (test models are not in the
// real catalog).
type fixedCatalog struct{ provider string }

func (c fixedCatalog) Candidates(_ context.Context, q catalog.Query) ([]catalog.Candidate, error) {
	out := make([]catalog.Candidate, len(q.Models))
	for i, m := range q.Models {
		native := m[strings.LastIndex(m, "/")+1:]
		out[i] = catalog.Candidate{Harness: Harness, Model: m, Provider: "openai", NativeID: native,
			Native: catalog.Native{Model: native, ModelProvider: c.provider}}
	}
	return out, nil
}

func (fixedCatalog) Providers(context.Context, string) (map[string]catalog.Provider, error) {
	return map[string]catalog.Provider{}, nil
}

// bed is one test: a fake Responses server, a private HOME, a working
// directory, the environment pointing Codex at the fake, and the events
// the adapter produced.
type bed struct {
	t    *testing.T
	srv  *fakemodel.Server
	home string
	work string
	env  []string

	mu     sync.Mutex
	events []adapter.Event
}

func newBed(t *testing.T, script string) *bed {
	t.Helper()
	bin := codexBin(t)
	s, err := fakemodel.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(s, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	dir := t.TempDir()
	b := &bed{t: t, srv: srv, home: filepath.Join(dir, "home"), work: filepath.Join(dir, "work")}
	for _, d := range []string{b.home, b.work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + b.home, "STRATOS_CODEX=" + bin,
		"OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_API_KEY=sk-fake-000", "STRATOS_TEST_MARKER=" + dir}
	return b
}

func (b *bed) record(e adapter.Event) {
	b.mu.Lock()
	b.events = append(b.events, e)
	b.mu.Unlock()
}

func (b *bed) eventsOf(typ string) []adapter.Event {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []adapter.Event
	for _, e := range b.events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func (b *bed) spec(edit func(*adapter.Spec)) adapter.Spec {
	s := adapter.Spec{AgentID: "a1", Name: "coder", Harness: Harness, Models: []string{"openai/gpt-fake"},
		SystemPrompt: "You write code for Stratos tests.", WorkingDirectory: b.work, WorkflowDir: b.work}
	if edit != nil {
		edit(&s)
	}
	return s
}

// open makes and initializes an adapter; Close runs at cleanup.
func (b *bed) open(hooks adapter.Hooks, edit func(*adapter.Spec)) adapter.Adapter {
	b.t.Helper()
	a, err := b.make(hooks, edit)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := a.Initialize(b.ctx()); err != nil {
		b.t.Fatal(err)
	}
	b.t.Cleanup(func() { _ = a.Close(context.Background()) })
	return a
}

func (b *bed) make(hooks adapter.Hooks, edit func(*adapter.Spec)) (adapter.Adapter, error) {
	if hooks == nil {
		hooks = &recHooks{}
	}
	f := NewFactory(Options{Log: testLog(b.t), Environ: func() []string { return b.env }, Catalog: fixedCatalog{provider: "openai"},
		MCPServers: func(string, []string) ([]mcpconfig.Server, error) { return nil, nil }})
	return f(b.spec(edit), b.record, hooks)
}

func (b *bed) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	b.t.Cleanup(cancel)
	return ctx
}

// recHooks records hook calls and answers with before/after (allow when
// nil).
type recHooks struct {
	mu     sync.Mutex
	seen   []string
	before func(adapter.ToolCall) (agentproto.BeforeToolCallResult, error)
	after  func(adapter.ToolCall, json.RawMessage) (agentproto.AfterToolCallResult, error)
	// afterErr answers afterToolCall for a failed call.
	afterErr func(*agentproto.ToolError) (agentproto.AfterToolCallResult, error)
}

func (h *recHooks) BeforeToolCall(_ context.Context, c adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
	h.mu.Lock()
	h.seen = append(h.seen, "before "+c.Name+" "+string(c.Input))
	f := h.before
	h.mu.Unlock()
	if f == nil {
		return agentproto.BeforeToolCallResult{Action: agentproto.ActionAllow}, nil
	}
	return f(c)
}

func (h *recHooks) AfterToolCall(_ context.Context, c adapter.ToolCall, out json.RawMessage, e *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
	h.mu.Lock()
	h.seen = append(h.seen, "after "+c.Name)
	f, fe := h.after, h.afterErr
	h.mu.Unlock()
	if e != nil && fe != nil {
		return fe(e)
	}
	if f == nil {
		return agentproto.AfterToolCallResult{}, nil
	}
	return f(c, out)
}

func (h *recHooks) calls() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.seen...)
}

// requests returns the logged model requests whose prompt contains marker.
func (b *bed) requests(marker string) []fakemodel.Entry {
	var out []fakemodel.Entry
	for _, e := range b.srv.Log().Entries() {
		if strings.Contains(e.Prompt, marker) {
			out = append(out, e)
		}
	}
	return out
}

// codexCommand runs the real CLI with CODEX_HOME set to home.
func codexCommand(t *testing.T, b *bed, home string, args ...string) *exec.Cmd {
	cmd := exec.Command(codexBin(t), args...)
	cmd.Env = append(append([]string(nil), b.env...), "CODEX_HOME="+home)
	return cmd
}

// testLog logs at trace level into the test's output when
// CODEX_TEST_TRACE is set (every app-server notification).
func testLog(t *testing.T) hclog.Logger {
	if os.Getenv("CODEX_TEST_TRACE") == "" {
		return hclog.NewNullLogger()
	}
	return hclog.New(&hclog.LoggerOptions{Level: hclog.Trace, Output: testWriter{t}})
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}
