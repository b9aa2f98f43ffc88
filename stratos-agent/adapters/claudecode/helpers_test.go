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
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
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
// scripts/prepare-test-cache sets to the pinned @anthropic-ai/claude-code
// it installs.
func claudeBin(t *testing.T) string {
	t.Helper()
	return adaptertest.CLI(t, "STRATOS_TEST_CLAUDE", "@anthropic-ai/claude-code")
}

// bed is one test against the real CLI: the kit's bed with the fake
// Anthropic API, and a private CLAUDE_CONFIG_DIR.
type bed struct{ *adaptertest.Bed }

// newBed is a bed for script (the fake's JSON) with an API key.
func newBed(t *testing.T, script string) *bed {
	t.Helper()
	return claudeBed(t, adaptertest.ParseScript(t, script), true)
}

// claudeBed points the CLI at the fake: the caller's environment without
// anything that configures Claude Code, the bed's HOME, its own
// CLAUDE_CONFIG_DIR and, withKey, a fake API key.
func claudeBed(t *testing.T, script fakemodel.Script, withKey bool) *bed {
	t.Helper()
	bin := claudeBin(t)
	b := adaptertest.NewBed(t, script)
	cfg := filepath.Join(b.Dir, "cfg")
	if err := os.MkdirAll(cfg, 0o755); err != nil {
		t.Fatal(err)
	}
	b.Env = append(append(inheritedEnv(), b.Env...), "CLAUDE_CONFIG_DIR="+cfg,
		"ANTHROPIC_BASE_URL="+b.Server.URL, "CLAUDE_CODE_MAX_RETRIES=1", EnvBinary+"="+bin)
	if withKey {
		b.Env = append(b.Env, "ANTHROPIC_API_KEY=sk-ant-fake-000")
	}
	return &bed{b}
}

// inheritedEnv is this process's environment without what configures
// Claude Code (a test may run inside a Claude Code session).
func inheritedEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "CLAUDECODE" || strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "CLAUDE_CODE_") || k == EnvBinary {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// spec fills in the defaults: name tester, model
// anthropic/claude-opus-4-7, the bed's working directory.
func (b *bed) spec(s adapter.Spec) adapter.Spec {
	if s.Name == "" {
		s.Name = "tester"
	}
	if s.Models == nil {
		s.Models = []string{"anthropic/claude-opus-4-7"}
	}
	if s.WorkingDirectory == "" {
		s.WorkingDirectory = b.Work
	}
	return s
}

// adapter makes and initializes an adapter for spec (see spec for the
// defaults).
func (b *bed) adapter(spec adapter.Spec, hooks adapter.Hooks) adapter.Adapter {
	return b.Open(NewFactory(Options{Environ: b.Environ}), b.spec(spec), hooks)
}

// modelRequests are the /v1/messages requests (not count_tokens or probes).
func (b *bed) modelRequests() []fakemodel.Entry {
	return adaptertest.MessagesEntries(b.Server.Log().Entries())
}

func ctx(t *testing.T) context.Context { return adaptertest.Context(t) }

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
