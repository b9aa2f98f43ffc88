package codex

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
)

// envMCPServer turns the test binary into a stdio MCP server with one
// tool, echo: Codex starts it from the thread's mcp_servers like any
// server.
const envMCPServer = "CODEX_TEST_MCP_SERVER"

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

func TestASelectedMCPServerIsCalledThroughItsNamespaceAndHooked(t *testing.T) {
	b := newBed(t, `{"turns":[
		{"match":{"marker":"[mcp]"},"reply":[{"toolUse":{"namespace":"mcp__tools","name":"echo","input":{"text":"secret-value"}}}]},
		{"match":{"marker":"[mcp]"},"reply":[{"text":"done"}]}]}`)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h := &recHooks{}
	f := NewFactory(Options{Environ: b.Environ, Catalog: fixedCatalog{provider: "openai"},
		MCPServers: func(_ string, names []string) ([]mcpconfig.Server, error) {
			if len(names) != 1 || names[0] != "tools" {
				t.Errorf("selected servers = %v", names)
			}
			return []mcpconfig.Server{{Name: "tools", Command: self, Env: map[string]string{envMCPServer: "1"}}}, nil
		}})
	spec := b.spec(func(s *adapter.Spec) { s.AllowedMcps = []string{"tools"} })
	a, err := f(spec, b.Record, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Initialize(b.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	h.after = func(c adapter.ToolCall, out json.RawMessage) (agentproto.AfterToolCallResult, error) {
		if !strings.Contains(string(out), "echo: secret-value") {
			t.Errorf("afterToolCall saw %s", out)
		}
		return agentproto.AfterToolCallResult{}, nil
	}
	if res, err := a.Execute(b.Context(), "[mcp] call it"); err != nil || res.Text != "done" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	reqs := b.RequestsWith("[mcp]")
	if r := reqs[len(reqs)-1].ToolResults; len(r) != 1 || !strings.Contains(r[0].Content, "echo: secret-value") {
		t.Errorf("tool results = %+v", r)
	}
	if calls := h.calls(); len(calls) != 2 || calls[0] != `before mcp__tools__echo {"text":"secret-value"}` {
		t.Errorf("hook calls = %q", calls)
	}
	if ev := b.EventsOf("tool.completed"); len(ev) != 1 || ev[0].Details.(*eventapi.ToolCompleted).ToolName != "mcp__tools__echo" {
		t.Errorf("tool.completed = %+v", ev)
	}
}
