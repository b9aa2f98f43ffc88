package claudecode

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// envMCPServer turns the test binary into a stdio MCP server (see
// serveMCP): Claude Code starts it from --mcp-config like any server.
const envMCPServer = "CLAUDECODE_TEST_MCP_SERVER"

func TestMain(m *testing.M) {
	if name := os.Getenv(envMCPServer); name != "" {
		serveMCP(name, os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(runTests(m))
}

// runTests builds the catalog tool (stratos-models) the adapter runs, so the
// tests use the real catalog rather than a copy of its tables.
func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "claudecode-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "stratos-models"), "github.com/stratoscli/stratos/stratos-models/cmd/stratos-models")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build stratos-models:", err)
		return 1
	}
	os.Setenv(sibling.EnvBinDir, dir)
	return m.Run()
}

// claudeBin is the real CLI under test: $STRATOS_TEST_CLAUDE, which
// scripts/test sets to the pinned @anthropic-ai/claude-code it installs.
func claudeBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("STRATOS_TEST_CLAUDE")
	if bin == "" {
		t.Fatal(missingCLI)
	}
	return bin
}

// missingCLI says what to install when the real CLI is not configured.
const missingCLI = "STRATOS_TEST_CLAUDE is not set: these tests run the real claude CLI; run scripts/test (it installs the pinned @anthropic-ai/claude-code), or eval \"$(scripts/prepare-test-cache)\" first"

// bed is one conformance test: a fake model server, a private HOME and
// CLAUDE_CONFIG_DIR, a working directory, and the events and hook calls
// the adapter produced.
type bed struct {
	t    *testing.T
	srv  *fakemodel.Server
	dir  string
	work string
	env  []string

	mu     sync.Mutex
	events []adapter.Event
}

func newBed(t *testing.T, script string) *bed {
	t.Helper()
	bin := claudeBin(t)
	s, err := fakemodel.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(s, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	dir := t.TempDir()
	b := &bed{t: t, srv: srv, dir: dir, work: filepath.Join(dir, "work")}
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
		b.env = append(b.env, kv)
	}
	b.env = append(b.env, "HOME="+filepath.Join(dir, "home"), "CLAUDE_CONFIG_DIR="+filepath.Join(dir, "cfg"),
		"ANTHROPIC_BASE_URL="+srv.URL, "ANTHROPIC_API_KEY=sk-ant-fake-000", "CLAUDE_CODE_MAX_RETRIES=1", EnvBinary+"="+bin)
	return b
}

// adapter makes and initializes an adapter for spec (defaults: model
// anthropic/claude-opus-4-7, the bed's working directory).
func (b *bed) adapter(spec adapter.Spec, hooks adapter.Hooks) adapter.Adapter {
	b.t.Helper()
	if spec.Name == "" {
		spec.Name = "tester"
	}
	if spec.Models == nil {
		spec.Models = []string{"anthropic/claude-opus-4-7"}
	}
	if spec.WorkingDirectory == "" {
		spec.WorkingDirectory = b.work
	}
	if hooks == nil {
		hooks = &testHooks{}
	}
	f := NewFactory(Options{Environ: func() []string { return b.env }})
	a, err := f(spec, b.record, hooks)
	if err != nil {
		b.t.Fatal(err)
	}
	b.t.Cleanup(func() {
		if err := a.Close(context.Background()); err != nil {
			b.t.Errorf("close: %v", err)
		}
	})
	if err := a.Initialize(ctx(b.t)); err != nil {
		b.t.Fatalf("initialize: %v", err)
	}
	return a
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

func (b *bed) requests() []fakemodel.Entry { return b.srv.Log().Entries() }

// modelRequests are the /v1/messages requests (not count_tokens or probes).
func (b *bed) modelRequests() []fakemodel.Entry {
	var out []fakemodel.Entry
	for _, e := range b.requests() {
		if e.Method == "POST" && strings.HasPrefix(e.Path, "/v1/messages") && !strings.Contains(e.Path, "count_tokens") {
			out = append(out, e)
		}
	}
	return out
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return c
}

func mustExecute(t *testing.T, a adapter.Adapter, prompt string) adapter.Result {
	t.Helper()
	res, err := a.Execute(ctx(t), prompt)
	if err != nil {
		t.Fatalf("execute %q: %v", prompt, err)
	}
	return res
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", code)
	}
	if got := agentproto.CodeOf(err); got != code {
		t.Fatalf("error code %s (%v), want %s", got, err, code)
	}
}

// testHooks records tool hook calls and answers with before/after.
type testHooks struct {
	before func(adapter.ToolCall) (agentproto.BeforeToolCallResult, error)
	after  func(adapter.ToolCall, json.RawMessage, *agentproto.ToolError) (agentproto.AfterToolCallResult, error)

	mu    sync.Mutex
	calls []string
}

func (h *testHooks) BeforeToolCall(_ context.Context, c adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
	h.mu.Lock()
	h.calls = append(h.calls, "before "+c.Name)
	h.mu.Unlock()
	if h.before != nil {
		return h.before(c)
	}
	return agentproto.BeforeToolCallResult{Action: agentproto.ActionAllow}, nil
}

func (h *testHooks) AfterToolCall(_ context.Context, c adapter.ToolCall, out json.RawMessage, e *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
	h.mu.Lock()
	h.calls = append(h.calls, "after "+c.Name)
	h.mu.Unlock()
	if h.after != nil {
		return h.after(c, out, e)
	}
	return agentproto.AfterToolCallResult{}, nil
}

// serveMCP is a minimal stdio MCP server with one tool, <name>_echo.
func serveMCP(name string, in *os.File, out *os.File) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string         `json:"protocolVersion"`
				Arguments       map[string]any `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // notifications
		}
		var result any
		switch req.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": req.Params.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": name, "version": "1.0.0"}}
		case "tools/list":
			result = map[string]any{"tools": []any{map[string]any{"name": name + "_echo", "description": "Echo text back",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}}}}
		case "tools/call":
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": fmt.Sprintf("%s-echo: %v", name, req.Params.Arguments["text"])}}}
		case "ping":
			result = map[string]any{}
		default:
			_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			continue
		}
		_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
}
