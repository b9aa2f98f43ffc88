package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpclient"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// directClients are the workflow's direct MCP clients, each owned by the
// execution that created it. A client is recorded before it connects, so a
// close that overtakes a slow connect still finds (and stops) it.
type directClients struct {
	timeout time.Duration
	record  func(eventapi.Event)
	stderr  io.Writer
	// tokens supplies OAuth servers' access tokens (nil: ~/.stratos's).
	tokens *mcpauth.Tokens
	// peer is the SDK end, which answers elicitation for the workflow
	// (set later than the clients are made: SetPeer).
	peer func() Peer
	// elicitTimeout bounds the wait for the workflow's elicitation handler.
	elicitTimeout time.Duration
	// sampling answers the sampling requests of servers that opt in.
	sampling sampler

	mu      sync.Mutex
	clients map[string]*directClient
	calls   atomic.Int64
}

type directClient struct {
	id, executionID, server string
	// ctx ends when the client is closed: a connect under way stops, and
	// no new call starts.
	ctx    context.Context
	cancel context.CancelFunc
	ready  chan struct{} // closed when connect ended, either way
	conn   *mcpclient.Client
}

func newDirectClients(timeout time.Duration, stderr io.Writer, record func(eventapi.Event)) *directClients {
	return &directClients{timeout: timeout, record: record, stderr: stderr, elicitTimeout: ElicitTimeout, clients: map[string]*directClient{}}
}

func (d *directClients) connect(ctx context.Context, p agentproto.MCPConnectParams) (*agentproto.MCPConnectResult, error) {
	if p.ClientID == "" || p.Server == "" {
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "mcp.connect: clientId and server are required")
	}
	if !filepath.IsAbs(p.Workflow.Dir) {
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "mcp.connect: workflow.dir must be an absolute path, got %q", p.Workflow.Dir)
	}
	server, err := resolveServer(p.Workflow.Dir, p.Server)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c := &directClient{id: p.ClientID, executionID: p.ExecutionID, server: p.Server, ctx: cctx, cancel: cancel, ready: make(chan struct{})}
	d.mu.Lock()
	if _, taken := d.clients[p.ClientID]; taken {
		d.mu.Unlock()
		cancel()
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "mcp.connect: client %s exists", p.ClientID)
	}
	d.clients[p.ClientID] = c
	d.mu.Unlock()
	defer close(c.ready)
	opts := mcpclient.Options{Stderr: d.stderr, Workflow: p.Workflow.Name, WorkflowDir: p.Workflow.Dir, Tokens: d.tokens,
		Progress: func(pn *mcp.ProgressNotificationParams) { d.progress(c, pn) },
		// Offered only to a server declared with sampling: decision.
		Sample: d.sampleHandler(c, p)}
	if p.Elicitation {
		opts.Elicit = d.elicitHandler(c)
	}
	if err := d.notifications(c, p, &opts); err != nil {
		d.forget(c.id)
		cancel()
		return nil, err
	}
	conn, err := mcpclient.Connect(cctx, server, opts)
	if err != nil {
		d.forget(c.id)
		cancel()
		return nil, connectError(p, err)
	}
	c.conn = conn
	if cctx.Err() != nil { // closed while connecting
		_ = conn.Close()
		return nil, agentproto.Errorf(agentproto.CodeMCPConnection, "MCP server %q: the client was closed while connecting", p.Server)
	}
	return &agentproto.MCPConnectResult{ProtocolVersion: conn.ProtocolVersion()}, nil
}

// connectError is a failed connect as the workflow sees it: the server
// could not be started or reached, or did not answer within its connect
// timeout (details.timeout then), naming the workflow.
func connectError(p agentproto.MCPConnectParams, err error) error {
	details := map[string]any{"server": p.Server}
	var timeout *mcpclient.TimeoutError
	if errors.As(err, &timeout) {
		details["timeout"] = timeout.Timeout.String()
	}
	return agentproto.Errorf(agentproto.CodeMCPConnection, "workflow %s: %v", p.Workflow.Name, err).WithDetails(details).Wrap(err)
}

// resolveServer finds a declared server and resolves its ${NAME} references.
func resolveServer(dir, name string) (mcpdecl.Server, error) {
	servers, err := mcpdecl.Load(dir)
	if err != nil {
		return mcpdecl.Server{}, agentproto.Errorf(agentproto.CodeMCPConfiguration, "%v", err).WithDetails(map[string]any{"server": name})
	}
	decl, ok := servers[name]
	if !ok {
		return mcpdecl.Server{}, agentproto.Errorf(agentproto.CodeMCPConfiguration, "%s: mcp.servers.%s: MCP server is not declared", filepath.Join(dir, "workflow.yaml"), name).
			WithDetails(map[string]any{"server": name})
	}
	server, err := decl.Resolve(dir, os.LookupEnv)
	if err != nil {
		details := map[string]any{"server": name}
		var missing *mcpdecl.MissingVariableError
		if errors.As(err, &missing) {
			details["variable"] = missing.Variable
		}
		return mcpdecl.Server{}, agentproto.Errorf(agentproto.CodeMCPConfiguration, "%s: %v", filepath.Join(dir, "workflow.yaml"), err).WithDetails(details)
	}
	return server, nil
}

func (d *directClients) call(ctx context.Context, p agentproto.MCPCallParams) (*agentproto.MCPCallResult, error) {
	c, err := d.ready(p.ClientID)
	if err != nil {
		return nil, err
	}
	var args any = map[string]any{}
	if len(p.Arguments) > 0 && string(p.Arguments) != "null" {
		args = p.Arguments
	}
	params := &mcp.CallToolParams{Name: p.Tool, Arguments: args}
	params.SetProgressToken(c.id + "/" + strconv.FormatInt(d.calls.Add(1), 10))
	// The call ends with the request, the client (closed), or the timeout.
	cctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	stop := context.AfterFunc(c.ctx, cancel)
	defer stop()
	res, err := c.conn.Session.CallTool(cctx, params)
	if err != nil {
		return nil, requestError(c, toolRequest(p.Tool), cctx, err, d.timeout)
	}
	content, err := json.Marshal(res.Content)
	if err != nil {
		return nil, agentproto.Errorf(agentproto.CodeMCPProtocol, "MCP server %q, tool %q: unreadable content: %v", c.server, p.Tool, err)
	}
	out := &agentproto.MCPCallResult{Content: content, IsError: res.IsError}
	if res.StructuredContent != nil {
		if out.StructuredContent, err = json.Marshal(res.StructuredContent); err != nil {
			return nil, agentproto.Errorf(agentproto.CodeMCPProtocol, "MCP server %q, tool %q: unreadable structured content: %v", c.server, p.Tool, err)
		}
	}
	return out, nil
}

// request names a request to a server in errors: text ("tool \"add\"")
// and the details that say which (besides the server).
type request struct {
	text    string
	details map[string]any
}

func toolRequest(tool string) request {
	return request{text: fmt.Sprintf("tool %q", tool), details: map[string]any{"tool": tool}}
}

// requestError classifies a failed request: an error already coded, the
// timeout, a JSON-RPC error the server answered with, a list too long to
// read, or a broken or closed connection.
func requestError(c *directClient, r request, ctx context.Context, err error, timeout time.Duration) error {
	if isAgentError(err) {
		return err
	}
	details := map[string]any{"server": c.server}
	for k, v := range r.details {
		details[k] = v
	}
	var wire *jsonrpc.Error
	var tooLong *mcpclient.ListTooLongError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return agentproto.Errorf(agentproto.CodeMCPTimeout, "MCP server %q, %s: no answer within %s (not retried)", c.server, r.text, timeout).WithDetails(details).Wrap(err)
	case errors.As(err, &wire):
		return agentproto.Errorf(agentproto.CodeMCPProtocol, "MCP server %q, %s: %s", c.server, r.text, wire.Message).WithDetails(details).Wrap(err)
	case errors.As(err, &tooLong):
		return agentproto.Errorf(agentproto.CodeMCPProtocol, "%v", tooLong).WithDetails(details).Wrap(err)
	case c.ctx.Err() != nil:
		return agentproto.Errorf(agentproto.CodeMCPConnection, "MCP server %q, %s: the client was closed", c.server, r.text).WithDetails(details).Wrap(err)
	}
	return agentproto.Errorf(agentproto.CodeMCPConnection, "MCP server %q, %s: %v", c.server, r.text, err).WithDetails(details).Wrap(err)
}

// ready returns a connected client.
func (d *directClients) ready(id string) (*directClient, error) {
	d.mu.Lock()
	c := d.clients[id]
	d.mu.Unlock()
	if c == nil {
		return nil, agentproto.Errorf(agentproto.CodeMCPConnection, "MCP client %s is closed or was never connected", id)
	}
	<-c.ready
	if c.conn == nil || c.ctx.Err() != nil {
		return nil, agentproto.Errorf(agentproto.CodeMCPConnection, "MCP server %q: the client is closed", c.server)
	}
	return c, nil
}

func (d *directClients) forget(id string) {
	d.mu.Lock()
	delete(d.clients, id)
	d.mu.Unlock()
}

// closeMatching closes the matching clients: pending calls and connects are
// cancelled, stdio servers stopped.
func (d *directClients) closeMatching(match func(*directClient) bool) error {
	d.mu.Lock()
	var targets []*directClient
	for id, c := range d.clients {
		if match(c) {
			targets = append(targets, c)
			delete(d.clients, id)
		}
	}
	d.mu.Unlock()
	var errs []error
	for _, c := range targets {
		c.cancel()
		<-c.ready
		if c.conn != nil {
			if err := c.conn.Close(); err != nil && !errors.Is(err, context.Canceled) {
				errs = append(errs, fmt.Errorf("close MCP server %q: %w", c.server, err))
			}
		}
	}
	return errors.Join(errs...)
}

func (d *directClients) progress(c *directClient, p *mcp.ProgressNotificationParams) {
	e := eventapi.New(&eventapi.MCPProgress{Server: c.server, Progress: p.Progress, Total: p.Total, Message: p.Message})
	e.ExecutionID = c.executionID
	e.IDs = eventapi.IDs{MCPClientID: c.id, ProgressToken: fmt.Sprint(p.ProgressToken)}
	d.record(e)
}
