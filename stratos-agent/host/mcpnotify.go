package host

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/mcpclient"
)

// What a server tells a direct client besides its answers: log messages
// become mcp.log events of the client's execution; resource changes go to
// the workflow (mcp.resourceChanged) when it asked for them.

// notifications are the client options that pass a server's notifications
// on, for a connect with p.
func (d *directClients) notifications(c *directClient, p agentproto.MCPConnectParams, opts *mcpclient.Options) error {
	if p.LogLevel != "" && !slices.Contains(agentproto.MCPLogLevels(), p.LogLevel) {
		return agentproto.Errorf(agentproto.CodeProtocol, "mcp.connect: logLevel must be one of %v, got %q", agentproto.MCPLogLevels(), p.LogLevel)
	}
	opts.LogLevel = p.LogLevel
	opts.Log = func(m mcpclient.LogMessage) { d.log(c, m) }
	opts.Resources = func(rc mcpclient.ResourceChange) {
		if rc.ListChanged && !p.ResourceListChanged {
			return
		}
		d.resourceChanged(c, rc)
	}
	return nil
}

// log records a server's log message as an mcp.log event.
func (d *directClients) log(c *directClient, m mcpclient.LogMessage) {
	data, truncated := logData(m.Data)
	e := eventapi.New(&eventapi.MCPLog{Server: c.server, Level: m.Level, Logger: m.Logger, Data: data, Truncated: truncated})
	e.ExecutionID = c.executionID
	e.IDs = eventapi.IDs{MCPClientID: c.id}
	d.record(e)
}

// logData is a log message's data as text (a string as itself, other JSON
// as its JSON), cut at a character boundary to eventapi.MCPLogMaxBytes.
func logData(v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		raw, err := json.Marshal(v)
		if err != nil {
			s = fmt.Sprint(v)
		} else {
			s = string(raw)
		}
	}
	if len(s) <= eventapi.MCPLogMaxBytes {
		return s, false
	}
	cut := eventapi.MCPLogMaxBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}

// resourceChanged tells the workflow; a notification, so a workflow that
// has gone does not hold the server's connection up.
func (d *directClients) resourceChanged(c *directClient, rc mcpclient.ResourceChange) {
	var peer Peer
	if d.peer != nil {
		peer = d.peer()
	}
	if peer == nil {
		return
	}
	params := agentproto.MCPResourceChangedParams{ClientID: c.id, URI: rc.URI, ListChanged: rc.ListChanged}
	if err := peer.Notify(agentproto.MethodMCPResourceChanged, params); err != nil {
		fmt.Fprintf(d.stderr, "stratos: MCP server %q: could not pass on a resource change: %v\n", c.server, err)
	}
}

// subscription starts or ends a subscription to a resource of a client.
func (d *directClients) subscription(ctx context.Context, method string, p agentproto.MCPSubscribeParams) (any, error) {
	if p.URI == "" {
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "%s: uri is required", method)
	}
	what := request{text: fmt.Sprintf("resource %q", p.URI), details: map[string]any{"uri": p.URI}}
	err := d.request(ctx, p.ClientID, what, func(ctx context.Context, conn *mcpclient.Client) error {
		if method == agentproto.MethodMCPUnsubscribe {
			return conn.Unsubscribe(ctx, p.URI)
		}
		return conn.Subscribe(ctx, p.URI)
	})
	return nil, err
}
