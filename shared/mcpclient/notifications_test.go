package mcpclient

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/fakemcp"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// notifyingServers are the test server with Options.Notifications, on
// every transport and protocol generation.
func notifyingServers() []struct {
	name   string
	server func(t *testing.T) mcpdecl.Server
} {
	stdio := func(mode string) func(t *testing.T) mcpdecl.Server {
		return func(t *testing.T) mcpdecl.Server {
			s := stdioServer(t, mode)
			s.Env["STRATOS_FAKEMCP_ARGS"] = "--notifications"
			return s
		}
	}
	web := func(legacy bool) func(t *testing.T) mcpdecl.Server {
		return func(t *testing.T) mcpdecl.Server {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			url := fakemcp.Serve(ctx, ln, fakemcp.Options{Legacy: legacy, Notifications: true})
			return mcpdecl.Server{Name: "fake", Transport: mcpdecl.TransportHTTP, URL: url}
		}
	}
	return []struct {
		name   string
		server func(t *testing.T) mcpdecl.Server
	}{
		{"http-modern", web(false)},
		{"http-legacy", web(true)},
		{"stdio-modern", stdio("modern")},
		{"stdio-legacy", stdio("legacy")},
	}
}

// waitFor is the next value on ch; the bound only ends a test that would
// otherwise hang.
func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("no %s", what)
		panic("unreachable")
	}
}

// drain is what ch holds now (a handler may still run after Close, so ch
// is never closed).
func drain[T any](ch <-chan T) []T {
	var out []T
	for {
		select {
		case v := <-ch:
			out = append(out, v)
		default:
			return out
		}
	}
}

func callText(t *testing.T, c *Client, tool string, args any) string {
	t.Helper()
	res, err := c.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("call %s: %+v", tool, res.Content)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// A client asked for a level hears the server's log messages from that
// level up, on either protocol generation (2026-07-28 states the level in
// each request, initialize-era servers are told once).
func TestLogMessagesFromTheAskedLevel(t *testing.T) {
	for _, c := range notifyingServers() {
		t.Run(c.name, func(t *testing.T) {
			logs := make(chan LogMessage, 10)
			client, err := Connect(context.Background(), c.server(t), Options{LogLevel: "info", Log: func(m LogMessage) { logs <- m }})
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			callText(t, client, fakemcp.LogTool, map[string]any{"level": "debug", "data": "too fine"})
			callText(t, client, fakemcp.LogTool, map[string]any{"level": "warning", "data": "careful", "logger": "db"})
			got := waitFor(t, logs, "log message")
			if got.Level != "warning" || got.Logger != "db" || got.Data != "careful" {
				t.Errorf("log message = %+v, want the warning (the debug one is below info)", got)
			}
		})
	}
}

// Without a level asked for, the client sets none: the test server (as the
// Go SDK's servers do) then sends nothing, even an emergency.
func TestNoLogLevelUnlessAsked(t *testing.T) {
	for _, c := range notifyingServers() {
		t.Run(c.name, func(t *testing.T) {
			logs := make(chan LogMessage, 10)
			client, err := Connect(context.Background(), c.server(t), Options{Log: func(m LogMessage) { logs <- m }})
			if err != nil {
				t.Fatal(err)
			}
			callText(t, client, fakemcp.LogTool, map[string]any{"level": "emergency", "data": "fire"})
			if err := client.Close(); err != nil {
				t.Fatal(err)
			}
			for _, p := range drain(logs) {
				t.Errorf("log message %+v without a level asked for", p)
			}
		})
	}
}

// The client's one root is the workflow's directory, as a file URL.
func TestRootsAreTheWorkflowDirectory(t *testing.T) {
	for _, c := range notifyingServers() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			client, err := Connect(context.Background(), c.server(t), Options{WorkflowDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			var got struct{ Roots []struct{ URI string } }
			if err := json.Unmarshal([]byte(callText(t, client, fakemcp.RootsTool, map[string]any{})), &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Roots) != 1 || got.Roots[0].URI != "file://"+dir {
				t.Errorf("roots = %+v, want file://%s", got.Roots, dir)
			}
		})
	}
}

// A subscribed resource's changes and the changes of the resource list
// reach Options.Resources; after Unsubscribe, the resource's do not.
func TestResourceSubscriptions(t *testing.T) {
	for _, c := range notifyingServers() {
		t.Run(c.name, func(t *testing.T) {
			changes := make(chan ResourceChange, 10)
			ctx := context.Background()
			client, err := Connect(ctx, c.server(t), Options{Resources: func(rc ResourceChange) { changes <- rc }})
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			callText(t, client, fakemcp.TouchTool, map[string]any{}) // not subscribed: not heard
			if uri := callText(t, client, fakemcp.AddNote, map[string]any{"name": "a"}); !strings.HasPrefix(uri, "fake://notes/") {
				t.Fatalf("add-note = %q", uri)
			}
			if got := waitFor(t, changes, "list change"); got != (ResourceChange{ListChanged: true}) {
				t.Errorf("change = %+v, want the list's change (the counter is not subscribed)", got)
			}
			if err := client.Subscribe(ctx, fakemcp.CounterURI); err != nil {
				t.Fatal(err)
			}
			callText(t, client, fakemcp.TouchTool, map[string]any{})
			if got := waitFor(t, changes, "resource update"); got != (ResourceChange{URI: fakemcp.CounterURI}) {
				t.Errorf("change = %+v, want an update of %s", got, fakemcp.CounterURI)
			}
			if err := client.Unsubscribe(ctx, fakemcp.CounterURI); err != nil {
				t.Fatal(err)
			}
			callText(t, client, fakemcp.TouchTool, map[string]any{})
			if err := client.Close(); err != nil {
				t.Fatal(err)
			}
			for _, rc := range drain(changes) {
				t.Errorf("change %+v after Unsubscribe", rc)
			}
		})
	}
}
