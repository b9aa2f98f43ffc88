package mcpclient

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/fakemcp"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// The test binary doubles as the stdio server: with STRATOS_FAKEMCP set it
// runs fakemcp instead of the tests; and as the client the MCP conformance
// suite drives (see conformance_test.go).
func TestMain(m *testing.M) {
	if os.Getenv(conformanceClientEnv) != "" {
		os.Exit(conformanceClient(os.Args[len(os.Args)-1], os.Stderr))
	}
	if os.Getenv("STRATOS_FAKEMCP") != "" {
		args := []string{"stratos-fakemcp"}
		if os.Getenv("STRATOS_FAKEMCP") == "legacy" {
			args = append(args, "--legacy")
		}
		args = append(args, strings.Fields(os.Getenv("STRATOS_FAKEMCP_ARGS"))...)
		os.Exit(fakemcp.Main(args, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func httpServer(t *testing.T, legacy bool) mcpdecl.Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	url := fakemcp.Serve(ctx, ln, fakemcp.Options{Legacy: legacy})
	return mcpdecl.Server{Name: "fake", Transport: mcpdecl.TransportHTTP, URL: url}
}

func stdioServer(t *testing.T, mode string) mcpdecl.Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return mcpdecl.Server{Name: "fake", Transport: mcpdecl.TransportStdio, Command: exe,
		Env: map[string]string{"STRATOS_FAKEMCP": mode}, Cwd: t.TempDir()}
}

func TestConnectNegotiatesModernAndLegacy(t *testing.T) {
	cases := []struct {
		name    string
		server  func(t *testing.T) mcpdecl.Server
		version string
	}{
		{"http-modern", func(t *testing.T) mcpdecl.Server { return httpServer(t, false) }, "2026-07-28"},
		{"http-legacy", func(t *testing.T) mcpdecl.Server { return httpServer(t, true) }, "2025-11-25"},
		{"stdio-modern", func(t *testing.T) mcpdecl.Server { return stdioServer(t, "modern") }, "2026-07-28"},
		{"stdio-legacy", func(t *testing.T) mcpdecl.Server { return stdioServer(t, "legacy") }, "2025-11-25"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			client, err := Connect(context.Background(), c.server(t), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			if got := client.ProtocolVersion(); got != c.version {
				t.Errorf("protocol %s, want %s", got, c.version)
			}
			tools, err := client.Tools(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range tools {
				names = append(names, tool.Name)
			}
			if got := strings.Join(names, ","); got != "add,barrier,echo,fail,search-issues,slow" {
				t.Errorf("tools %s", got)
			}
			res, err := client.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": 2, "b": 3}})
			if err != nil {
				t.Fatal(err)
			}
			if sc, _ := res.StructuredContent.(map[string]any); sc["sum"] != 5.0 {
				t.Errorf("add: %#v", res.StructuredContent)
			}
		})
	}
}

func TestConcurrentCallsAndProgress(t *testing.T) {
	progress := make(chan string, 100)
	client, err := Connect(context.Background(), httpServer(t, false), Options{Progress: func(p *mcp.ProgressNotificationParams) {
		progress <- p.Message
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	// The barrier tool answers only when all four calls are in flight at
	// once: serialized calls would never complete (the deadline fails them).
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			_, err := client.Session.CallTool(ctx, &mcp.CallToolParams{Name: "barrier", Arguments: map[string]any{"key": "k", "n": 4}})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"millis": 20, "steps": 2}}
	params.SetProgressToken("p")
	if _, err := client.Session.CallTool(ctx, params); err != nil {
		t.Fatal(err)
	}
	// Notifications are delivered apart from the result: wait for both.
	for _, want := range []string{"step 1 of 2", "step 2 of 2"} {
		select {
		case got := <-progress:
			if got != want {
				t.Errorf("progress %q, want %q", got, want)
			}
		case <-ctx.Done():
			t.Fatalf("no progress notification %q", want)
		}
	}
}

func TestFailedStartNamesTheServer(t *testing.T) {
	s := mcpdecl.Server{Name: "ghost", Transport: mcpdecl.TransportStdio, Command: "/nonexistent/mcp-server"}
	_, err := Connect(context.Background(), s, Options{})
	if err == nil || !strings.Contains(err.Error(), `"ghost"`) {
		t.Fatalf("err = %v", err)
	}
}

// A server without tools lists none as an empty list, so `stratos mcp
// tools --json` prints "tools": [] for it, never null.
func TestNoToolsIsAnEmptyList(t *testing.T) {
	bare := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return bare }, nil))
	defer srv.Close()
	c, err := Connect(context.Background(), mcpdecl.Server{Name: "bare", Transport: mcpdecl.TransportHTTP, URL: srv.URL}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tools, err := c.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(ServerTools{Server: "bare", Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `"tools":[]`) {
		t.Errorf("listing %s, want \"tools\":[]", got)
	}
}

// Stratos's clients offer no elicitation: a server that would ask its
// user for input mid-call (elicitation/create) sees that the client does
// not support it and fails or goes on without, at once, so a run, which has
// nobody to ask, never waits for an answer (docs/mcp.md, MCP features).
func TestElicitationIsRefusedAtOnce(t *testing.T) {
	asker := mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, nil)
	asker.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Which branch?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"branch":{"type":"string"}}}`)})
		if err == nil {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answered"}}}, nil
		}
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return asker }, nil))
	defer srv.Close()
	c, err := Connect(context.Background(), mcpdecl.Server{Name: "asker", Transport: mcpdecl.TransportHTTP, URL: srv.URL}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask"})
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := res.Content[0].(*mcp.TextContent); !res.IsError || text == nil || text.Text != "client does not support elicitation" {
		t.Errorf("the elicitation was not refused: %#v", res.Content[0])
	}
}
