//lint:file-ignore SA1019 the test server logs and asks for roots, deprecated as of protocol 2026-07-28 (SEP-2577) but used by earlier sessions, which Stratos's client supports.

package fakemcp

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// With Options.Notifications: what a client hears besides answers. The log
// tool sends a log message, the roots tool asks the client for its roots,
// the touch tool changes CounterURI (a subscribable resource: subscribers
// hear notifications/resources/updated), and the add-note tool adds a
// resource (clients hear notifications/resources/list_changed).
const (
	LogTool    = "log"
	RootsTool  = "roots"
	TouchTool  = "touch"
	AddNote    = "add-note"
	CounterURI = "fake://counter"
	// SizedTemplate names a text resource of that many bytes ("<", which
	// JSON encoders may escape to six).
	SizedTemplate = "fake://sized/{bytes}"
)

// notifier holds the counter resource's value.
type notifier struct {
	server  *mcp.Server
	counter atomic.Int64
}

// subscriptions are the server options a subscribable resource needs: the
// SDK keeps the subscribers, the test server accepts every subscription.
func subscriptions(opts *mcp.ServerOptions) {
	opts.SubscribeHandler = func(context.Context, *mcp.SubscribeRequest) error { return nil }
	opts.UnsubscribeHandler = func(context.Context, *mcp.UnsubscribeRequest) error { return nil }
}

func addNotifications(s *mcp.Server) {
	n := &notifier{server: s}
	s.AddResource(&mcp.Resource{URI: CounterURI, Name: "counter", MIMEType: "text/plain", Description: "How often touch was called."},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return textResource(req.Params.URI, strconv.FormatInt(n.counter.Load(), 10)), nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: SizedTemplate, Name: "sized", MIMEType: "text/plain", Description: "A text of the given size."},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			n, err := strconv.Atoi(strings.TrimPrefix(req.Params.URI, "fake://sized/"))
			if err != nil || n < 0 {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			return textResource(req.Params.URI, strings.Repeat("<", n)), nil
		})
	s.AddTool(&mcp.Tool{Name: LogTool, Description: "Sends a log message: data (repeated repeat times) at level from logger.",
		InputSchema: schema(`{"type":"object","properties":{"level":{"type":"string"},"data":{"type":"string"},"logger":{"type":"string"},"repeat":{"type":"integer"}},"required":["level","data"],"additionalProperties":false}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			in, err := args[struct {
				Level, Data, Logger string
				Repeat              int
			}](req)
			if err != nil {
				return nil, err
			}
			data := strings.Repeat(in.Data, max(in.Repeat, 1))
			if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(in.Level), Logger: in.Logger, Data: data}); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: text("logged")}, nil
		})
	s.AddTool(&mcp.Tool{Name: RootsTool, Description: "Asks the client for its roots: its result is the roots/list answer as JSON.",
		InputSchema: schema(`{"type":"object","additionalProperties":false}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// A multi round-trip request, as the release tool's.
			answer, ok := req.Params.InputResponses["roots"].(*mcp.ListRootsResult)
			if !ok {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}}, nil
			}
			out, err := json.Marshal(answer)
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: text(string(out))}, nil
		})
	s.AddTool(&mcp.Tool{Name: TouchTool, Description: "Counts one up on " + CounterURI + " and tells its subscribers.",
		InputSchema: schema(`{"type":"object","additionalProperties":false}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			v := n.counter.Add(1)
			if err := n.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: CounterURI}); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: text(strconv.FormatInt(v, 10))}, nil
		})
	s.AddTool(&mcp.Tool{Name: AddNote, Description: "Adds the resource fake://notes/<name>, which changes the list of resources.",
		InputSchema: schema(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			in, err := args[struct{ Name string }](req)
			if err != nil {
				return nil, err
			}
			uri := "fake://notes/" + in.Name
			n.server.AddResource(&mcp.Resource{URI: uri, Name: in.Name, MIMEType: "text/plain"},
				func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
					return textResource(req.Params.URI, "note "+in.Name), nil
				})
			return &mcp.CallToolResult{Content: text(uri)}, nil
		})
}
