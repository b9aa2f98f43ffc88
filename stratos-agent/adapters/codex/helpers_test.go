package codex

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
)

// codexBin is the real CLI under test: $STRATOS_TEST_CODEX, which
// scripts/prepare-test-cache sets to the native binary of the pinned
// @openai/codex it installs.
func codexBin(t *testing.T) string {
	t.Helper()
	return adaptertest.CLI(t, "STRATOS_TEST_CODEX", "@openai/codex")
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

// bed is one test against the real CLI: the kit's bed with the fake
// Responses API at OPENAI_BASE_URL.
type bed struct{ *adaptertest.Bed }

// newBed is a bed for script (the fake's JSON) with an API key.
func newBed(t *testing.T, script string) *bed {
	t.Helper()
	return codexBed(t, adaptertest.ParseScript(t, script), true)
}

// codexBed points the CLI at the fake, with a fake API key when withKey.
func codexBed(t *testing.T, script fakemodel.Script, withKey bool) *bed {
	t.Helper()
	bin := codexBin(t)
	b := adaptertest.NewBed(t, script)
	b.Env = append(b.Env, EnvBinary+"="+bin, "OPENAI_BASE_URL="+b.Server.URL+"/v1")
	if withKey {
		b.Env = append(b.Env, "OPENAI_API_KEY=sk-fake-000")
	}
	return &bed{b}
}

// options bind the adapter to the bed: its environment, a catalog that
// knows the test models, no MCP server.
func (b *bed) options() Options {
	return Options{Log: testLog(b.T), Environ: b.Environ, Catalog: fixedCatalog{provider: "openai"},
		MCPServers: func(string, []string) ([]mcpconfig.Server, error) { return nil, nil }}
}

func (b *bed) spec(edit func(*adapter.Spec)) adapter.Spec {
	s := adapter.Spec{AgentID: "a1", Name: "coder", Harness: Harness, Models: []string{"openai/gpt-fake"},
		SystemPrompt: "You write code for Stratos tests.", WorkingDirectory: b.Work, WorkflowDir: b.Work}
	if edit != nil {
		edit(&s)
	}
	return s
}

// open makes and initializes an adapter; Close runs at cleanup.
func (b *bed) open(hooks adapter.Hooks, edit func(*adapter.Spec)) adapter.Adapter {
	b.T.Helper()
	return b.Open(NewFactory(b.options()), b.spec(edit), orRecHooks(hooks))
}

// make makes an adapter; Close runs at cleanup.
func (b *bed) make(hooks adapter.Hooks, edit func(*adapter.Spec)) (adapter.Adapter, error) {
	return b.Make(NewFactory(b.options()), b.spec(edit), orRecHooks(hooks))
}

func orRecHooks(h adapter.Hooks) adapter.Hooks {
	if h == nil {
		return &recHooks{}
	}
	return h
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

// codexCommand runs the real CLI with CODEX_HOME set to home.
func codexCommand(t *testing.T, b *bed, home string, args ...string) *exec.Cmd {
	cmd := exec.Command(codexBin(t), args...)
	cmd.Env = append(append([]string(nil), b.Env...), "CODEX_HOME="+home)
	return cmd
}

// testLog logs every app-server notification into the test's output
// when CODEX_TEST_TRACE is set.
func testLog(t *testing.T) hclog.Logger { return adaptertest.TraceLog(t, "CODEX_TEST_TRACE") }
