// Package mcpclient connects Stratos to one declared MCP server with the
// official Go SDK: a stdio server started as a child process (its own
// process group, killed with Stratos) or a streamable HTTP server. The SDK
// negotiates the protocol: modern servers (2026-07-28) answer
// server/discover without an initialize handshake; legacy servers get
// initialize. Build discovery, `stratos mcp tools` and the direct clients of
// the agent host all connect here.
package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpdecl"
	"github.com/stratoscli/stratos/shared/version"
)

// RequestTimeout bounds every request to a server (the runtime contract:
// five minutes, no automatic retry).
const RequestTimeout = 5 * time.Minute

// stopGrace is how long a stdio server may take to exit after its stdin
// closes before its group is killed.
const stopGrace = 2 * time.Second

// Options configure a connection.
type Options struct {
	// Stderr receives a stdio server's standard error (nil: discarded).
	Stderr io.Writer
	// Progress receives the server's progress notifications.
	Progress func(*mcp.ProgressNotificationParams)
	// HTTPClient carries requests to an HTTP server (nil: a default client);
	// the declared headers are added to every request.
	HTTPClient *http.Client
	// Tokens supplies the access tokens of servers declared with oauth
	// (nil: mcpauth.DefaultTokens, the store under ~/.stratos).
	Tokens *mcpauth.Tokens
	// Workflow is the declaring workflow's name, for the `stratos mcp
	// login` command an authentication error names.
	Workflow string
	// WorkflowDir is the declaring workflow's directory, so that a timeout
	// names the workflow.yaml that can raise it ("": not named).
	WorkflowDir string
	// Elicit answers the server's elicitation requests in place of the
	// declared policy (nil: the declaration's elicitation decides).
	Elicit ElicitFunc
	// Log receives the server's log messages (notifications/message; nil:
	// dropped). Servers send them from LogLevel up; many send none until
	// a level is set.
	Log func(LogMessage)
	// LogLevel is the least severe level the server is asked to send
	// ("debug" … "emergency"; "" sets none: the server's own default
	// stands).
	LogLevel string
	// Sample answers the server's sampling requests when its declaration
	// opts in (sampling: decision); nil, or a server that does not opt
	// in: no sampling capability is declared.
	Sample SampleFunc
	// Resources receives the server's resource notifications: a subscribed
	// resource changed, or the list of resources did (nil: dropped).
	Resources func(ResourceChange)
}

// Client is a ready connection to one server.
type Client struct {
	Name    string
	Session *mcp.ClientSession
	proc    *stdioProcess
	once    sync.Once
	err     error
	subs    subscriptions
}

// Connect starts or reaches server (already resolved: no ${NAME} left) and
// completes the protocol's preparation within server.Timeout(). Whatever it
// started is stopped again when it fails, at once when ctx was cancelled,
// so a failed Connect leaves nothing behind. A timeout is a *TimeoutError;
// a stdio server that exits while connecting is named with its exit status
// and the last lines of its stderr.
func Connect(ctx context.Context, server mcpdecl.Server, opts Options) (*Client, error) {
	c := &Client{Name: server.Name}
	transport, err := c.transport(ctx, server, opts)
	if err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "stratos", Version: version.Version}, c.clientOptions(server, opts))
	addRoots(client, opts.WorkflowDir)
	client.AddReceivingMiddleware(heardAck(&c.subs))
	if opts.LogLevel != "" {
		client.AddSendingMiddleware(logLevelMeta(opts.LogLevel))
	}
	connectCtx, cancel := context.WithTimeout(ctx, server.Timeout())
	defer cancel()
	session, err := client.Connect(connectCtx, transport, nil)
	if err == nil {
		err = setLogLevel(connectCtx, session, opts.LogLevel)
	}
	if err != nil {
		if session != nil {
			_ = session.Close()
		}
		return nil, c.connectFailed(ctx, connectCtx, server, opts, err)
	}
	c.Session = session
	return c, nil
}

// clientOptions are the SDK client's handlers: each notification or
// request goes to its option, and a capability is declared only for what
// Stratos answers (roots: see addRoots).
func (c *Client) clientOptions(server mcpdecl.Server, opts Options) *mcp.ClientOptions {
	o := &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			if opts.Progress != nil {
				opts.Progress(req.Params)
			}
		},
		ElicitationHandler: elicitationHandler(server, opts.Elicit),
	}
	offerRoots(o, opts.WorkflowDir)
	offerSampling(o, server, opts.Sample)
	hearLogs(o, opts.Log)
	if opts.Resources != nil {
		o.ResourceUpdatedHandler = func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			if req.Params != nil && c.subs.has(req.Params.URI) {
				opts.Resources(ResourceChange{URI: req.Params.URI})
			}
		}
		o.ResourceListChangedHandler = func(context.Context, *mcp.ResourceListChangedRequest) {
			opts.Resources(ResourceChange{ListChanged: true})
		}
	}
	return o
}

// transport starts a stdio server or prepares the HTTP transport.
func (c *Client) transport(ctx context.Context, server mcpdecl.Server, opts Options) (mcp.Transport, error) {
	switch server.Transport {
	case mcpdecl.TransportStdio:
		proc, err := startStdio(server, opts.Stderr)
		if err != nil {
			return nil, fmt.Errorf("start MCP server %q (%s): %w", server.Name, server.Command, err)
		}
		c.proc = proc
		return proc.transport(), nil
	case mcpdecl.TransportHTTP:
		t := &mcp.StreamableClientTransport{Endpoint: server.URL, HTTPClient: withReadLimits(withHeaders(opts.HTTPClient, server.Headers)),
			MaxEventSize: MaxMessageBytes}
		if server.OAuth != nil {
			h, err := oauthHandler(ctx, server, opts)
			if err != nil {
				return nil, err
			}
			t.OAuthHandler = h
		}
		return t, nil
	}
	return nil, fmt.Errorf("MCP server %q: unknown transport %q", server.Name, server.Transport)
}

// connectFailed stops what Connect started and says why it failed: the
// caller gave up (ctx: the server is killed at once), the connect timeout
// passed, or the server broke the connection (a stdio server's exit status
// and the end of its stderr say why).
func (c *Client) connectFailed(ctx, connectCtx context.Context, server mcpdecl.Server, opts Options, err error) error {
	if ctx.Err() != nil {
		c.kill()
		return fmt.Errorf("connect to MCP server %q: %w", server.Name, ctx.Err())
	}
	exit := c.stopProcess()
	if errors.Is(connectCtx.Err(), context.DeadlineExceeded) {
		return &TimeoutError{Server: server.Name, Stage: StageHandshake, Timeout: server.Timeout(), Field: server.TimeoutField(), File: workflowFile(opts.WorkflowDir), Stderr: exit.Stderr, Err: err}
	}
	return &ConnectError{Server: server.Name, Status: exit.Status, Stderr: exit.Stderr, Err: err}
}

// oauthHandler checks that server has a usable token before connecting (a
// missing login is then one clear error, not an HTTP 401) and returns the
// handler that puts the current token on every request.
func oauthHandler(ctx context.Context, server mcpdecl.Server, opts Options) (auth.OAuthHandler, error) {
	var tokens mcpauth.Tokens
	if opts.Tokens != nil {
		tokens = *opts.Tokens
	} else {
		var err error
		if tokens, err = mcpauth.DefaultTokens(); err != nil {
			return nil, err
		}
	}
	if _, err := tokens.ForServer(ctx, opts.Workflow, server, false); err != nil {
		return nil, err
	}
	return tokens.Handler(opts.Workflow, server), nil
}

// ProtocolVersion is the negotiated protocol version.
func (c *Client) ProtocolVersion() string {
	if r := c.Session.InitializeResult(); r != nil {
		return r.ProtocolVersion
	}
	return ""
}

// Tools lists every tool the server offers, sorted by name.
func (c *Client) Tools(ctx context.Context) ([]*mcp.Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	out := []*mcp.Tool{} // a server without tools lists [], not null
	for t, err := range c.Session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list the tools of MCP server %q: %w", c.Name, err)
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Close ends the session and stops a stdio server. It is safe to call more
// than once and from several goroutines.
func (c *Client) Close() error {
	c.once.Do(func() {
		if c.Session != nil {
			c.err = c.Session.Close()
		}
		c.stopProcess()
	})
	return c.err
}

// stopProcess stops a stdio server (see stdioProcess.stop); the zero
// processExit for an HTTP server.
func (c *Client) stopProcess() processExit {
	if c.proc == nil {
		return processExit{}
	}
	return c.proc.stop(stopGrace)
}

// kill ends a stdio server's group at once: its caller was interrupted.
func (c *Client) kill() {
	if c.proc != nil {
		c.proc.stop(0)
	}
}

// withHeaders returns a client that adds headers to every request.
func withHeaders(base *http.Client, headers map[string]string) *http.Client {
	if base == nil {
		base = &http.Client{}
	}
	if len(headers) == 0 {
		return base
	}
	c := *base
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = headerTransport{next: next, headers: maps.Clone(headers)}
	return &c
}

// withReadLimits returns a client whose responses are bounded while they
// are read (readLimitTransport).
func withReadLimits(base *http.Client) *http.Client {
	c := *base
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = readLimitTransport{next: next}
	return &c
}

type headerTransport struct {
	next    http.RoundTripper
	headers map[string]string
}

func (t headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	return t.next.RoundTrip(req)
}
