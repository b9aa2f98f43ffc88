package host

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/fakemcp"
)

func (f *fixture) connectWith(p agentproto.MCPConnectParams) error {
	p.ExecutionID = "top"
	p.Workflow = agentproto.WorkflowRef{Name: "wf", Dir: f.dir}
	return f.client.Call(context.Background(), agentproto.MethodMCPConnect, p, &agentproto.MCPConnectResult{})
}

// toolText is a tool result's one text block.
func (f *fixture) toolText(id, tool string, args any) string {
	f.t.Helper()
	out, err := f.mcpCall(id, tool, args)
	if err != nil {
		f.t.Fatal(err)
	}
	var content []struct{ Text string }
	if err := json.Unmarshal(out.Content, &content); err != nil || len(content) != 1 || out.IsError {
		f.t.Fatalf("%s: content %s", tool, out.Content)
	}
	return content[0].Text
}

// A server's log messages, from the level the workflow asked for, become
// mcp.log events of the client's execution; long data is cut.
func TestServerLogMessagesBecomeEvents(t *testing.T) {
	f := startMCP(t, twoServers, time.Minute)
	for _, server := range []string{"modern", "legacy"} {
		id := "c-" + server
		if err := f.connectWith(agentproto.MCPConnectParams{ClientID: id, Server: server, LogLevel: "info"}); err != nil {
			t.Fatal(err)
		}
		f.toolText(id, fakemcp.LogTool, map[string]any{"level": "debug", "data": "too fine"})
		f.toolText(id, fakemcp.LogTool, map[string]any{"level": "warning", "data": "careful", "logger": "db"})
		e := f.waitEvent(eventapi.TypeMCPLog)
		want := eventapi.MCPLog{Server: server, Level: "warning", Logger: "db", Data: "careful"}
		if d := e.Details.(*eventapi.MCPLog); *d != want || e.IDs.MCPClientID != id || e.ExecutionID != "top" {
			t.Errorf("%s: event %+v %+v, want %+v", server, e, d, want)
		}
		f.toolText(id, fakemcp.LogTool, map[string]any{"level": "error", "data": "é", "repeat": eventapi.MCPLogMaxBytes})
		d := f.waitEvent(eventapi.TypeMCPLog).Details.(*eventapi.MCPLog)
		if !d.Truncated || len(d.Data) != eventapi.MCPLogMaxBytes || strings.Trim(d.Data, "é") != "" {
			t.Errorf("%s: a long message is cut whole characters to %d bytes: truncated %v, %d bytes", server, eventapi.MCPLogMaxBytes, d.Truncated, len(d.Data))
		}
	}
	err := f.connectWith(agentproto.MCPConnectParams{ClientID: "bad", Server: "modern", LogLevel: "loud"})
	if code, _ := errCode(t, err); code != agentproto.CodeProtocol || !strings.Contains(err.Error(), `logLevel must be one of`) {
		t.Errorf("an unknown level: %v", err)
	}
}

// The client offers the workflow's directory as its root.
func TestDirectClientRootIsTheWorkflowDirectory(t *testing.T) {
	f := startMCP(t, twoServers, time.Minute)
	for _, server := range []string{"modern", "legacy"} {
		id := "c-" + server
		if err := f.connectWith(agentproto.MCPConnectParams{ClientID: id, Server: server}); err != nil {
			t.Fatal(err)
		}
		got := f.toolText(id, fakemcp.RootsTool, map[string]any{})
		if want := `"uri":"file://` + f.dir + `"`; !strings.Contains(got, want) {
			t.Errorf("%s: roots %s, want %s", server, got, want)
		}
	}
}

// A subscribed resource's changes and, when asked for, the changes of the
// resource list reach the workflow (mcp.resourceChanged).
func TestResourceChangesReachTheWorkflow(t *testing.T) {
	f := startMCP(t, twoServers, time.Minute)
	changes := make(chan agentproto.MCPResourceChangedParams, 10)
	f.onHook(agentproto.MethodMCPResourceChanged, func(raw json.RawMessage) (any, error) {
		var p agentproto.MCPResourceChangedParams
		err := json.Unmarshal(raw, &p)
		changes <- p
		return nil, err
	})
	next := func() agentproto.MCPResourceChangedParams {
		select {
		case p := <-changes:
			return p
		case <-time.After(30 * time.Second): // ends a test that would hang
			t.Fatal("no resource change")
			return agentproto.MCPResourceChangedParams{}
		}
	}
	for _, server := range []string{"modern", "legacy"} {
		id := "c-" + server
		if err := f.connectWith(agentproto.MCPConnectParams{ClientID: id, Server: server, ResourceListChanged: true}); err != nil {
			t.Fatal(err)
		}
		f.toolText(id, fakemcp.AddNote, map[string]any{"name": server})
		if got := next(); got != (agentproto.MCPResourceChangedParams{ClientID: id, ListChanged: true}) {
			t.Errorf("%s: change %+v, want the list's", server, got)
		}
		sub := agentproto.MCPSubscribeParams{ClientID: id, URI: fakemcp.CounterURI}
		if err := f.mcpRequest(agentproto.MethodMCPSubscribe, sub, nil); err != nil {
			t.Fatal(err)
		}
		f.toolText(id, fakemcp.TouchTool, map[string]any{})
		if got := next(); got != (agentproto.MCPResourceChangedParams{ClientID: id, URI: fakemcp.CounterURI}) {
			t.Errorf("%s: change %+v, want the counter's", server, got)
		}
		if err := f.mcpRequest(agentproto.MethodMCPUnsubscribe, sub, nil); err != nil {
			t.Fatal(err)
		}
	}
	err := f.mcpRequest(agentproto.MethodMCPSubscribe, agentproto.MCPSubscribeParams{ClientID: "c-modern"}, nil)
	if code, _ := errCode(t, err); code != agentproto.CodeProtocol {
		t.Errorf("a subscription without a URI: %v", err)
	}
}
