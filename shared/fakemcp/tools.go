// Package fakemcp is the MCP server Stratos's tests talk to: a real MCP
// server (the official Go SDK) over stdio or streamable HTTP, speaking the
// modern protocol (2026-07-28, no initialize) or, with Legacy, only the
// initialize-era protocol. Its tools cover what Stratos must handle: plain
// results, structured output, a slow tool that reports progress and honours
// cancellation, a tool that answers isError, and a rich input schema for the
// wrapper generator.
package fakemcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/fakeoauth"
)

// Version is the newest legacy protocol version; Options.Legacy limits the
// server to it and older.
const legacyVersion = "2025-11-25"

// Options configure a server.
type Options struct {
	// Name is the server's implementation name (default "fakemcp").
	Name string
	// Legacy limits the server to the initialize-era protocol.
	Legacy bool
	// ExtraTools are more echo tools under these names: a test changes a
	// server's tool list between two discoveries with them.
	ExtraTools []string
	// OAuth, with streamable HTTP, guards the server with bearer tokens of
	// a built-in authorization server at the same origin.
	OAuth *fakeoauth.Options
	// Links adds what following resource links needs (a tool whose result
	// links to resources, and a binary resource), kept out of the default
	// lists the other tests assert.
	Links bool
	// Elicit adds the release tool, which asks its client for a form.
	Elicit bool
	// Sample adds the summarize tool, which asks its client's model for a
	// summary (sampling).
	Sample bool
	// Notifications adds the tools that log, ask for roots and change
	// resources, and a subscribable resource (see LogTool).
	Notifications bool
}

// NewServer returns the test server with every tool.
func NewServer(o Options) *mcp.Server {
	name := o.Name
	if name == "" {
		name = "fakemcp"
	}
	opts := &mcp.ServerOptions{}
	if o.Legacy {
		opts.SupportedProtocolVersions = []string{legacyVersion, "2025-06-18", "2025-03-26"}
	}
	if o.Notifications {
		subscriptions(opts)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1.0.0"}, opts)
	for _, t := range tools() {
		s.AddTool(t.tool, t.handler)
	}
	addResourcesAndPrompts(s)
	if o.Links {
		addLinks(s)
	}
	if o.Elicit {
		addElicit(s)
	}
	if o.Sample {
		addSample(s)
	}
	if o.Notifications {
		addNotifications(s)
	}
	for _, name := range o.ExtraTools {
		s.AddTool(&mcp.Tool{Name: name, Description: "Returns the text it is given (an extra tool).",
			InputSchema: schema(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`)}, echo)
	}
	return s
}

type tool struct {
	tool    *mcp.Tool
	handler mcp.ToolHandler
}

func schema(s string) json.RawMessage { return json.RawMessage(s) }

func tools() []tool {
	b := &barriers{waiting: map[string]*barrier{}}
	return []tool{
		{&mcp.Tool{
			Name: "barrier", Description: "Answers once n calls with the same key are in flight together (proves calls run concurrently).",
			InputSchema: schema(`{"type":"object","properties":{"key":{"type":"string"},"n":{"type":"integer","minimum":1}},"required":["key","n"]}`),
		}, b.call},
		{&mcp.Tool{
			Name: "echo", Description: "Returns the text it is given.",
			InputSchema: schema(`{"type":"object","properties":{"text":{"type":"string","description":"What to echo."}},"required":["text"],"additionalProperties":false}`),
		}, echo},
		{&mcp.Tool{
			Name: "add", Description: "Adds two numbers.",
			InputSchema:  schema(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`),
			OutputSchema: schema(`{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"],"additionalProperties":false}`),
		}, add},
		{&mcp.Tool{
			Name: "slow", Description: "Waits, reporting progress every 10 ms, then answers; cancelled calls stop.",
			InputSchema: schema(`{"type":"object","properties":{"millis":{"type":"integer","minimum":0,"maximum":600000},"steps":{"type":"integer","minimum":1}},"required":["millis"]}`),
		}, slow},
		{&mcp.Tool{
			Name: "fail", Description: "Answers with isError: true and the given message.",
			InputSchema: schema(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`),
		}, fail},
		{&mcp.Tool{
			Name: "search-issues", Description: "Searches issues (a rich input schema for the wrapper generator).",
			InputSchema: schema(`{"type":"object","properties":{
				"query":{"type":"string","minLength":1,"description":"Full-text query."},
				"limit":{"type":"integer","minimum":1,"maximum":100,"default":10},
				"state":{"enum":["open","closed","all"]},
				"labels":{"type":"array","items":{"type":"string"}},
				"author":{"type":["string","null"]},
				"since":{"type":"object","properties":{"date":{"type":"string","format":"date"},"inclusive":{"type":"boolean"}},"required":["date"],"additionalProperties":false},
				"sort":{"oneOf":[{"const":"created"},{"const":"updated"}]}
			},"required":["query"],"additionalProperties":false}`),
			OutputSchema: schema(`{"type":"object","properties":{"total":{"type":"integer"},"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"title":{"type":"string"}},"required":["id","title"],"additionalProperties":false}}},"required":["total","items"],"additionalProperties":false}`),
		}, searchIssues},
	}
}

// barriers hold the calls of the barrier tool until their group is complete.
type barriers struct {
	mu      sync.Mutex
	waiting map[string]*barrier
}

type barrier struct {
	arrived int
	done    chan struct{}
}

func (b *barriers) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	in, err := args[struct {
		Key string
		N   int
	}](req)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	g := b.waiting[in.Key]
	if g == nil {
		g = &barrier{done: make(chan struct{})}
		b.waiting[in.Key] = g
	}
	g.arrived++
	if g.arrived == in.N {
		close(g.done)
		delete(b.waiting, in.Key)
	}
	b.mu.Unlock()
	select {
	case <-g.done:
		return &mcp.CallToolResult{Content: text(fmt.Sprintf("%d calls met at %s", in.N, in.Key))}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func args[T any](req *mcp.CallToolRequest) (T, error) {
	var v T
	if err := json.Unmarshal(req.Params.Arguments, &v); err != nil {
		return v, fmt.Errorf("arguments: %w", err)
	}
	return v, nil
}

func text(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }

func echo(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	in, err := args[struct{ Text string }](req)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: text(in.Text)}, nil
}

func add(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	in, err := args[struct{ A, B float64 }](req)
	if err != nil {
		return nil, err
	}
	sum := in.A + in.B
	return &mcp.CallToolResult{Content: text(fmt.Sprint(sum)), StructuredContent: map[string]any{"sum": sum}}, nil
}

func slow(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	in, err := args[struct {
		Millis int
		Steps  int
	}](req)
	if err != nil {
		return nil, err
	}
	if in.Steps < 1 {
		in.Steps = 1
	}
	deadline := time.Now().Add(time.Duration(in.Millis) * time.Millisecond)
	token := req.Params.GetProgressToken()
	for step := 1; step <= in.Steps; step++ {
		wait := time.Until(deadline) / time.Duration(in.Steps-step+1)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		if token != nil {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token, Progress: float64(step), Total: float64(in.Steps), Message: fmt.Sprintf("step %d of %d", step, in.Steps),
			})
		}
	}
	return &mcp.CallToolResult{Content: text(fmt.Sprintf("waited %d ms", in.Millis))}, nil
}

func fail(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	in, err := args[struct{ Message string }](req)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{IsError: true, Content: text(in.Message)}, nil
}

func searchIssues(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	in, err := args[struct {
		Query string
		Limit int
	}](req)
	if err != nil {
		return nil, err
	}
	items := []any{map[string]any{"id": 1, "title": "first match for " + in.Query}}
	out := map[string]any{"total": len(items), "items": items}
	b, _ := json.Marshal(out)
	return &mcp.CallToolResult{Content: text(string(b)), StructuredContent: out}, nil
}
