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
	var auth *mcpauth.ServerError
	if errors.As(e.Err, &auth) {
		return auth.Error() // it names the server and the login command
	}
	return fmt.Sprintf("MCP server %q: %v", e.Server, e.Err)
}

func (e *DiscoveryError) Unwrap() error { return e.Err }

// Discover resolves, connects to and lists the tools of each named server
// of workflowDir's declarations, one after another, closing each
// connection before the next. The first failure is a *DiscoveryError.
func Discover(ctx context.Context, workflowDir string, servers mcpdecl.Servers, names []string, lookup mcpdecl.Lookup, opts Options) ([]ServerTools, error) {
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
	defer c.Close()
	tools, err := c.Tools(ctx)
	if err != nil {
		return ServerTools{}, err
	}
	return ServerTools{Server: decl.Name, Transport: decl.Transport, ProtocolVersion: c.ProtocolVersion(), Tools: tools}, nil
}
