package mcpclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// askingServer serves a tool "ask" that elicits a form with schema and
// answers with what the client sent back: its action and content as JSON,
// or the elicitation's error.
func askingServer(t *testing.T, schema string) string {
	t.Helper()
	asker := mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, nil)
	asker.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Release?", RequestedSchema: json.RawMessage(schema)})
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
		}
		out, _ := json.Marshal(res)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}, nil
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return asker }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

func ask(t *testing.T, server mcpdecl.Server) string {
	t.Helper()
	c, err := Connect(context.Background(), server, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask"})
	if err != nil {
		t.Fatal(err)
	}
	text, _ := res.Content[0].(*mcp.TextContent)
	if res.IsError || text == nil {
		t.Fatalf("the elicitation failed: %#v", res.Content[0])
	}
	return text.Text
}

// A server declared with elicitation: accept-defaults gets every form
// accepted at once with the defaults its schema gives (string, integer,
// number, enum, boolean), and fields without one left out.
func TestElicitationAcceptsDefaults(t *testing.T) {
	url := askingServer(t, `{"type":"object","properties":{
		"branch":{"type":"string","default":"main"},
		"retries":{"type":"integer","default":3},
		"ratio":{"type":"number","default":0.5},
		"mode":{"type":"string","enum":["fast","safe"],"default":"safe"},
		"dryRun":{"type":"boolean","default":true},
		"note":{"type":"string"}},"required":["branch"]}`)
	got := ask(t, mcpdecl.Server{Name: "asker", Transport: mcpdecl.TransportHTTP, URL: url, Elicitation: mcpdecl.ElicitationAcceptDefaults})
	want := `{"action":"accept","content":{"branch":"main","dryRun":true,"mode":"safe","ratio":0.5,"retries":3}}`
	if got != want {
		t.Errorf("answer %s\nwant   %s", got, want)
	}
}

// A form that requires a value without a default is declined at once:
// Stratos does not make an answer up, and a run never waits for one.
func TestElicitationDeclinesARequiredValueWithoutDefault(t *testing.T) {
	url := askingServer(t, `{"type":"object","properties":{"branch":{"type":"string","default":"main"},"reason":{"type":"string"}},"required":["branch","reason"]}`)
	got := ask(t, mcpdecl.Server{Name: "asker", Transport: mcpdecl.TransportHTTP, URL: url, Elicitation: mcpdecl.ElicitationAcceptDefaults})
	if got != `{"action":"decline"}` {
		t.Errorf("answer %s, want a decline", got)
	}
}

func TestAcceptDefaultsDeclinesAURLToVisit(t *testing.T) {
	if got := acceptDefaults(&mcp.ElicitParams{Mode: "url", URL: "https://example.test/approve", ElicitationID: "e1"}); got.Action != elicitDecline {
		t.Errorf("action %q, want decline", got.Action)
	}
}
