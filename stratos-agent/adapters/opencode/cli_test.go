package opencode

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/proctest"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// envMCPServer turns the test binary into a stdio MCP server with one
// tool, echo: OpenCode starts it from the configuration like any server.
const envMCPServer = "OPENCODE_TEST_MCP_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(envMCPServer) != "" {
		serveEcho()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func serveEcho() {
	s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echo the text back.", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &in)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil
		})
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}

// The Chat Completions path (the Stratos-managed OpenAI-compatible Ollama
// provider): a selected MCP server's tool is offered as <server>_<tool>,
// called, seen by both hooks, and its result replaced by an afterToolCall
// block; the built-in tools removed by the selection are not offered.
func TestSelectedMCPToolsOnlyAndRemovedToolsDenied(t *testing.T) {
	b := newBed(t, `{"turns":[
		{"match":{"api":"chat","marker":"[mcp]"},"reply":[{"toolUse":{"name":"tools_echo","input":{"text":"secret-value"}}}]},
		{"match":{"api":"chat","marker":"[mcp]"},"reply":[{"text":"done"}]}]}`)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b.mcp = func(_ string, names []string) ([]mcpconfig.Server, error) {
		if !slices.Equal(names, []string{"tools"}) {
			t.Errorf("selected servers = %v", names)
		}
		return []mcpconfig.Server{{Name: "tools", Command: self, Env: map[string]string{envMCPServer: b.Work}}}, nil
	}
	var seen json.RawMessage
	h := &recHooks{after: func(_ adapter.ToolCall, out json.RawMessage, _ *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
		seen = out
		return agentproto.AfterToolCallResult{Action: agentproto.ActionBlock, Reason: "mcp output withheld"}, nil
	}}
	a := b.open(h, func(s *adapter.Spec) {
		s.AllowedMcps = []string{"tools"}
		s.Tools = tools.Selection{DisallowedTools: []string{"shell", "edit", "write"}}
	})
	if res, err := a.Execute(b.Context(), "[mcp] call it"); err != nil || res.Text != "done" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	reqs := b.RequestsWith("[mcp]")
	if len(reqs) != 2 {
		t.Fatalf("%d model requests", len(reqs))
	}
	offered := reqs[0].Tools
	for _, name := range offered {
		if strings.Contains(name, "_") && name != "tools_echo" {
			t.Errorf("tool %s offered: only the selected server's tools may be", name)
		}
	}
	if !slices.Contains(offered, "tools_echo") || !slices.Contains(offered, "read") {
		t.Errorf("offered tools %v lack tools_echo or read", offered)
	}
	for _, removed := range []string{"bash", "edit", "write"} {
		if slices.Contains(offered, removed) {
			t.Errorf("removed tool %s is offered: %v", removed, offered)
		}
	}
	if sys := strings.Join(reqs[0].System, "\n"); strings.Contains(sys, projectMarker) || !strings.Contains(sys, "You write code for Stratos tests.") {
		t.Errorf("system prompt %q: want the session's prompt and no project or user instructions", sys)
	}
	if !strings.Contains(string(seen), "echo: secret-value") {
		t.Errorf("afterToolCall saw %s", seen)
	}
	if r := reqs[1].ToolResults; len(r) != 1 || r[0].Content != "mcp output withheld" {
		t.Errorf("tool results = %+v, want the block reason instead of the MCP result", r)
	}
	if calls := h.calls(); len(calls) != 2 || calls[0] != `before tools_echo {"text":"secret-value"}` {
		t.Errorf("hook calls = %q", calls)
	}
	if ev := b.EventsOf(eventapi.TypeToolCompleted); len(ev) != 1 || ev[0].Details.(*eventapi.ToolCompleted).ToolName != "tools_echo" ||
		string(ev[0].Details.(*eventapi.ToolCompleted).Output) != `"mcp output withheld"` {
		t.Errorf("tool.completed = %+v, want the replaced output", ev)
	}
	mcpServer := envMCPServer + "=" + b.Work
	if len(proctest.WithEnv(mcpServer)) == 0 {
		t.Fatalf("the MCP server is not running while the session is open")
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if left := proctest.WithEnv(mcpServer); len(left) != 0 {
		t.Errorf("MCP server processes outlived Close:\n%s", proctest.Describe(left))
	}
}

// OpenCode starts a local MCP server with its own environment, which holds
// the server's password and its configuration (with the hook token); the
// MCP server gets the declared environment without them, in its declared
// working directory.
func TestLocalMCPServersCannotSeeTheServersSecrets(t *testing.T) {
	b := newBed(t, `{"turns":[
		{"match":{"marker":"[mcpenv]"},"reply":[{"toolUse":{"name":"tools_echo","input":{"text":"hi"}}}]},
		{"match":{"marker":"[mcpenv]"},"reply":[{"text":"done"}]}]}`)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	marker := envMCPServer + "=" + b.Work
	cwd := t.TempDir()
	b.mcp = func(string, []string) ([]mcpconfig.Server, error) {
		return []mcpconfig.Server{{Name: "tools", Command: self, Env: map[string]string{envMCPServer: b.Work}, Cwd: cwd}}, nil
	}
	a := b.open(nil, func(s *adapter.Spec) { s.AllowedMcps = []string{"tools"} })
	if res, err := a.Execute(b.Context(), "[mcpenv] call it"); err != nil || res.Text != "done" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	servers := proctest.WithEnv(marker)
	if len(servers) != 1 {
		t.Fatalf("MCP server processes, want one:\n%s", proctest.Describe(servers))
	}
	environ, err := servers[0].Environ()
	if err != nil {
		t.Fatal(err)
	}
	if dir, err := servers[0].WorkingDir(); err != nil || dir != cwd {
		t.Errorf("the MCP server runs in %s (%v), want its declared cwd %s", dir, err, cwd)
	}
	s := a.(*session)
	out := strings.Join(environ, "\n")
	checkNoSecrets(t, "the MCP server", out, map[string]string{"the server password": s.srv.password, "the hook token": s.hookSrv.token})
}

// With every hook and tool path exercised, OpenCode connects to nothing
// but loopback: strace records every connect(2) of the server and its
// children.
func TestNoConnectionBeyondLoopback(t *testing.T) {
	b := newBed(t, `{"turns":[
		{"match":{"marker":"[net]"},"reply":[{"toolUse":{"name":"bash","input":{"command":"echo offline","description":"say it"}}}]},
		{"match":{"marker":"[net]"},"reply":[{"text":"done"}]}]}`)
	tr := adaptertest.TraceConnects(t, opencodeBin(t))
	b.Env = append(b.Env, EnvBinary+"="+tr.Wrapper)
	a := b.open(nil, nil)
	if res, err := a.Execute(b.Context(), "[net] go"); err != nil || res.Text != "done" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	tr.CheckLoopbackOnly(t, "OpenCode")
}

// OpenCode's question tool waits for a human; the adapter answers it
// (empty answers) so the turn goes on instead of hanging.
func TestAQuestionIsAnsweredSoTheTurnGoesOn(t *testing.T) {
	b := newBed(t, `{"turns":[
		{"match":{"marker":"[ask]"},"reply":[{"toolUse":{"name":"question","input":{"questions":[
			{"question":"Which file?","header":"file","options":[{"label":"a.go","description":"the first"}]}]}}}]},
		{"match":{"marker":"[ask]"},"reply":[{"text":"went on"}]}]}`)
	a := b.open(nil, nil)
	if res, err := a.Execute(b.Context(), "[ask] pick one"); err != nil || res.Text != "went on" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	if r := b.RequestsWith("[ask]"); len(r) != 2 || len(r[1].ToolResults) != 1 {
		t.Errorf("the question's result did not reach the model: %+v", r)
	}
}

// The server's password and its configuration (which holds the hook
// token) are in the server's environment; a command the agent runs must
// see neither.
func TestTheAgentsCommandsCannotSeeTheServersSecrets(t *testing.T) {
	b := newBed(t, `{"turns":[
		{"match":{"marker":"[env]"},"reply":[{"toolUse":{"name":"bash","input":{"command":"env","description":"show the environment"}}}]},
		{"match":{"marker":"[env]"},"reply":[{"text":"done"}]}]}`)
	a := b.open(nil, nil)
	if res, err := a.Execute(b.Context(), "[env] go"); err != nil || res.Text != "done" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	s := a.(*session)
	var out string
	for _, e := range b.EventsOf(eventapi.TypeToolCompleted) {
		_ = json.Unmarshal(e.Details.(*eventapi.ToolCompleted).Output, &out)
	}
	secrets := map[string]string{"the server password": s.srv.password, "the hook token": s.hookSrv.token}
	checkNoSecrets(t, "the agent's command", out, secrets)
}

// Without tool hooks the plugin only announces each call (the turn's end
// relies on it, one loopback round trip): no author hook is asked, the
// call runs, and the agent's commands still cannot see the server's
// password or the hook token.
func TestWithoutToolHooksNoHookIsAsked(t *testing.T) {
	b := newBed(t, `{"turns":[
		{"match":{"marker":"[plain]"},"reply":[{"toolUse":{"name":"bash","input":{"command":"env","description":"show the environment"}}}]},
		{"match":{"marker":"[plain]"},"reply":[{"text":"done"}]}]}`)
	hooks := &noToolHooks{}
	a := b.open(hooks, nil)
	if res, err := a.Execute(b.Context(), "[plain] go"); err != nil || res.Text != "done" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	s := a.(*session)
	if calls := hooks.calls(); len(calls) != 0 {
		t.Errorf("hooks asked for an agent without tool hooks: %v", calls)
	}
	var out string
	for _, e := range b.EventsOf(eventapi.TypeToolCompleted) {
		_ = json.Unmarshal(e.Details.(*eventapi.ToolCompleted).Output, &out)
	}
	checkNoSecrets(t, "the agent's command", out, map[string]string{"the server password": s.srv.password, "the hook token": s.hookSrv.token})
}

// noToolHooks reports that the agent has no tool hook (as the host does
// for an author who defined neither beforeToolCall nor afterToolCall).
type noToolHooks struct{ recHooks }

func (*noToolHooks) HasToolHooks() bool { return false }

// checkNoSecrets fails unless out, the environment listing of who, has
// none of the secrets and none of the variables that carry them.
func checkNoSecrets(t *testing.T, who, out string, secrets map[string]string) {
	t.Helper()
	if !strings.Contains(out, "PATH=") {
		t.Fatalf("the command's output is not its environment: %q", out)
	}
	secrets["OPENCODE_SERVER_PASSWORD"] = "OPENCODE_SERVER_PASSWORD="
	secrets["OPENCODE_CONFIG_CONTENT"] = "OPENCODE_CONFIG_CONTENT="
	for name, secret := range secrets {
		if strings.Contains(out, secret) {
			t.Errorf("%s sees %s", who, name)
		}
	}
}
