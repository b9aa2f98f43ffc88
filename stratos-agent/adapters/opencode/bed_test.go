package opencode

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
)

// projectMarker is in the project's and the user's OpenCode files; no
// request may carry it.
const projectMarker = "PROJECT-INSTRUCTIONS-5e2b"

// bed is one test against the real CLI: a fake Ollama server (the
// script's inventory, by default qwen-fake:latest installed) reached
// through OpenCode's Stratos-managed Ollama provider (OpenAI-compatible:
// the fake's Chat Completions API at $OLLAMA_HOST/v1), a working
// directory, and the events the adapter produced.
type bed struct {
	t    *testing.T
	srv  *fakemodel.Server
	work string
	env  []string
	mcp  mcpconfig.Resolver

	mu     sync.Mutex
	events []adapter.Event
}

func newBed(t *testing.T, script string) *bed {
	t.Helper()
	bin := opencodeBin(t)
	s, err := fakemodel.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	if s.Ollama == nil { // the model of spec, installed
		s.Ollama = &fakemodel.Ollama{Models: []fakemodel.OllamaModel{{Name: "qwen-fake:latest"}}}
	}
	srv, err := fakemodel.Start(s, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	dir := t.TempDir()
	b := &bed{t: t, srv: srv, work: filepath.Join(dir, "work"),
		mcp: func(string, []string) ([]mcpconfig.Server, error) { return nil, nil }}
	for _, d := range []string{"home", "work"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, "home"), EnvBinary + "=" + bin, "OLLAMA_HOST=" + srv.URL}
	// Project and user configuration the isolation must keep out.
	for name, content := range map[string]string{
		filepath.Join(b.work, "AGENTS.md"):                             projectMarker,
		filepath.Join(b.work, ".opencode", "opencode.json"):            `{"instructions":["` + projectMarker + `"]}`,
		filepath.Join(dir, "home", ".opencode", "AGENTS.md"):           projectMarker,
		filepath.Join(dir, "home", ".config", "opencode", "AGENTS.md"): projectMarker,
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
	s := adapter.Spec{AgentID: "a1", Name: "coder", Harness: Harness, Models: []string{"ollama/qwen-fake"},
		SystemPrompt: "You write code for Stratos tests.", WorkingDirectory: b.work, WorkflowDir: b.work}
	if edit != nil {
		edit(&s)
	}
	return s
}

// open makes and initializes an adapter; Close runs at cleanup.
func (b *bed) open(hooks adapter.Hooks, edit func(*adapter.Spec)) adapter.Adapter {
	b.t.Helper()
	if hooks == nil {
		hooks = &recHooks{}
	}
	f := NewFactory(Options{Log: testLog(b.t), Environ: func() []string { return b.env }, Catalog: fixedCatalog{provider: "ollama"}, MCPServers: b.mcp})
	a, err := f(b.spec(edit), b.record, hooks)
	if err != nil {
		b.t.Fatal(err)
	}
	b.t.Cleanup(func() { _ = a.Close(context.Background()) })
	if err := a.Initialize(b.ctx()); err != nil {
		b.t.Fatal(err)
	}
	return a
}

func (b *bed) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	b.t.Cleanup(cancel)
	return ctx
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

// recHooks records hook calls and answers with before/after (allow when
// nil).
type recHooks struct {
	mu     sync.Mutex
	seen   []string
	before func(adapter.ToolCall) (agentproto.BeforeToolCallResult, error)
	after  func(adapter.ToolCall, json.RawMessage, *agentproto.ToolError) (agentproto.AfterToolCallResult, error)
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
	f := h.after
	h.mu.Unlock()
	if f == nil {
		return agentproto.AfterToolCallResult{}, nil
	}
	return f(c, out, e)
}

func (h *recHooks) calls() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.seen...)
}
