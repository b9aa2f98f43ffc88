package opencode

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
)

// projectMarker is in the project's and the user's OpenCode files; no
// request may carry it.
const projectMarker = "PROJECT-INSTRUCTIONS-5e2b"

// bed is one test against the real CLI: the kit's bed with a fake
// Ollama server (the script's inventory, by default qwen-fake:latest
// installed) reached through OpenCode's Stratos-managed Ollama provider
// (OpenAI-compatible: the fake's Chat Completions API at
// $OLLAMA_HOST/v1), and project and user OpenCode files the isolation
// must keep out.
type bed struct {
	*adaptertest.Bed
	// mcp resolves the agent's MCP servers (default: none).
	mcp mcpconfig.Resolver
}

func newBed(t *testing.T, script string) *bed {
	t.Helper()
	bin := opencodeBin(t)
	s := adaptertest.ParseScript(t, script)
	if s.Ollama == nil { // the model of spec, installed
		s.Ollama = &fakemodel.Ollama{Models: []fakemodel.OllamaModel{{Name: "qwen-fake:latest"}}}
	}
	b := &bed{Bed: adaptertest.NewBed(t, s), mcp: func(string, []string) ([]mcpconfig.Server, error) { return nil, nil }}
	b.Env = append(b.Env, EnvBinary+"="+bin, "OLLAMA_HOST="+b.Server.URL)
	for name, content := range map[string]string{
		filepath.Join(b.Work, "AGENTS.md"):                        projectMarker,
		filepath.Join(b.Work, ".opencode", "opencode.json"):       `{"instructions":["` + projectMarker + `"]}`,
		filepath.Join(b.Home, ".opencode", "AGENTS.md"):           projectMarker,
		filepath.Join(b.Home, ".config", "opencode", "AGENTS.md"): projectMarker,
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

// openaiBed is a bed whose CLI reaches the fake Responses API through
// OpenCode's openai provider (OPENAI_BASE_URL), with a fake key when
// withKey.
func openaiBed(t *testing.T, script fakemodel.Script, withKey bool) *adaptertest.Bed {
	t.Helper()
	bin := opencodeBin(t)
	b := adaptertest.NewBed(t, script)
	b.Env = append(b.Env, EnvBinary+"="+bin, "OPENAI_BASE_URL="+b.Server.URL+"/v1")
	if withKey {
		b.Env = append(b.Env, "OPENAI_API_KEY=sk-fake-000")
	}
	return b
}

// openaiOptions bind the adapter to an openaiBed: its environment, the
// catalog answering openai, no MCP server.
func openaiOptions(b *adaptertest.Bed) Options {
	return Options{Log: testLog(b.T), Environ: b.Environ, Catalog: fixedCatalog{provider: "openai"},
		MCPServers: func(string, []string) ([]mcpconfig.Server, error) { return nil, nil }}
}

func (b *bed) spec(edit func(*adapter.Spec)) adapter.Spec {
	s := adapter.Spec{AgentID: "a1", Name: "coder", Harness: Harness, Models: []string{"ollama/qwen-fake"},
		SystemPrompt: "You write code for Stratos tests.", WorkingDirectory: b.Work, WorkflowDir: b.Work}
	if edit != nil {
		edit(&s)
	}
	return s
}

// open makes and initializes an adapter; Close runs at cleanup.
func (b *bed) open(hooks adapter.Hooks, edit func(*adapter.Spec)) adapter.Adapter {
	b.T.Helper()
	if hooks == nil {
		hooks = &recHooks{}
	}
	f := NewFactory(Options{Log: testLog(b.T), Environ: b.Environ, Catalog: fixedCatalog{provider: "ollama"}, MCPServers: b.mcp})
	return b.Open(f, b.spec(edit), hooks)
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
