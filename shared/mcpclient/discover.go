package mcpclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// ServerTools is what one server offers.
type ServerTools struct {
	Server          string      `json:"server"`
	Transport       string      `json:"transport"`
	ProtocolVersion string      `json:"protocolVersion"`
	Tools           []*mcp.Tool `json:"tools"`
}

// DiscoveryError says which server could not be discovered and why.
type DiscoveryError struct {
	Server string
	Err    error
}

func (e *DiscoveryError) Error() string {
	// These name the server themselves (and the login command, or how to
	// raise the timeout).
	var auth *mcpauth.ServerError
	var timeout *TimeoutError
	var connect *ConnectError
	switch {
	case errors.As(e.Err, &auth):
		return auth.Error()
	case errors.As(e.Err, &timeout):
		return timeout.Error()
	case errors.As(e.Err, &connect):
		return connect.Error()
	}
	return fmt.Sprintf("MCP server %q: %v", e.Server, e.Err)
}

func (e *DiscoveryError) Unwrap() error { return e.Err }

// Discover resolves, connects to and lists the tools of each named server
// of workflowDir's declarations, one after another, closing each
// connection before the next. Each server's connect timeout bounds its
// connection and, again, its listing. The first failure is a
// *DiscoveryError.
func Discover(ctx context.Context, workflowDir string, servers mcpdecl.Servers, names []string, lookup mcpdecl.Lookup, opts Options) ([]ServerTools, error) {
	opts.WorkflowDir = workflowDir
	out := make([]ServerTools, 0, len(names))
	for _, name := range names {
		st, err := discoverOne(ctx, workflowDir, servers[name], lookup, opts)
		if err != nil {
			return nil, &DiscoveryError{Server: name, Err: err}
		}
		out = append(out, st)
	}
	return out, nil
}

func discoverOne(ctx context.Context, workflowDir string, decl mcpdecl.Server, lookup mcpdecl.Lookup, opts Options) (ServerTools, error) {
	server, err := decl.Resolve(workflowDir, lookup)
	if err != nil {
		return ServerTools{}, err
	}
	c, err := Connect(ctx, server, opts)
	if err != nil {
		return ServerTools{}, err
	}
	defer func() {
		if ctx.Err() != nil {
			c.kill() // interrupted: no grace for the server
		}
		c.Close()
	}()
	listCtx, cancel := context.WithTimeout(ctx, server.Timeout())
	defer cancel()
	tools, err := c.Tools(listCtx)
	if err != nil {
		if ctx.Err() == nil && errors.Is(listCtx.Err(), context.DeadlineExceeded) {
			return ServerTools{}, &TimeoutError{Server: decl.Name, Stage: StageListTools, Timeout: server.Timeout(), Field: server.TimeoutField(), File: workflowFile(workflowDir), Err: err}
		}
		return ServerTools{}, err
	}
	return ServerTools{Server: decl.Name, Transport: decl.Transport, ProtocolVersion: c.ProtocolVersion(), Tools: tools}, nil
}
