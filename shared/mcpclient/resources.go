package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxListed bounds every list a client reads page by page: a server that
// keeps sending next cursors must not keep the client reading forever.
const MaxListed = 10000

// ListTooLongError says a server listed more than MaxListed entries.
type ListTooLongError struct {
	Server, What string // What: "resources", "resource templates", "prompts"
	Limit        int
}

func (e *ListTooLongError) Error() string {
	return fmt.Sprintf("MCP server %q lists more than %d %s; Stratos reads at most %d", e.Server, e.Limit, e.What, e.Limit)
}

// collect reads a paginated list to its end, at most MaxListed entries,
// sorted by key.
func collect[T any](c *Client, what string, pages iter.Seq2[T, error], key func(T) string) ([]T, error) {
	var out []T
	for item, err := range pages {
		if err != nil {
			return nil, fmt.Errorf("list the %s of MCP server %q: %w", what, c.Name, err)
		}
		if len(out) == MaxListed {
			return nil, &ListTooLongError{Server: c.Name, What: what, Limit: MaxListed}
		}
		out = append(out, item)
	}
	sort.Slice(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out, nil
}

// Resources lists every resource the server offers, sorted by URI.
func (c *Client) Resources(ctx context.Context) ([]*mcp.Resource, error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	return collect(c, "resources", c.Session.Resources(ctx, nil), func(r *mcp.Resource) string { return r.URI })
}

// ResourceTemplates lists every resource template the server offers,
// sorted by URI template.
func (c *Client) ResourceTemplates(ctx context.Context) ([]*mcp.ResourceTemplate, error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	return collect(c, "resource templates", c.Session.ResourceTemplates(ctx, nil), func(t *mcp.ResourceTemplate) string { return t.URITemplate })
}

// ReadResource reads the resource at uri: a listed resource, one a
// template names, or one a tool result links to. With limit > 0 an HTTP
// server's response is not read past what limit bytes of content can take
// (readBound): a larger one is a *ResourceTooLargeError. Every response is
// bounded by MaxMessageBytes; the exact limit is for the caller to apply
// to the decoded contents.
func (c *Client) ReadResource(ctx context.Context, uri string, limit int) (*mcp.ReadResourceResult, error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	if limit > 0 {
		ctx = withReadLimit(ctx, limit)
	}
	res, err := c.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	var wire *jsonrpc.Error
	if errors.As(err, &wire) && wire.Code == CodeResourceTooLarge {
		return nil, &ResourceTooLargeError{Server: c.Name, URI: uri, Limit: limit, Err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("read resource %q of MCP server %q: %w", uri, c.Name, err)
	}
	return res, nil
}

// ResourceTooLargeError says a resource read's response outgrew what its
// limit allows while it was being read; the rest was not read.
type ResourceTooLargeError struct {
	Server, URI string
	Limit       int
	Err         error
}

func (e *ResourceTooLargeError) Error() string {
	return fmt.Sprintf("MCP server %q, resource %q: more than %d bytes, over the limit (not read further)", e.Server, e.URI, e.Limit)
}

func (e *ResourceTooLargeError) Unwrap() error { return e.Err }

// Prompts lists every prompt the server offers, sorted by name.
func (c *Client) Prompts(ctx context.Context) ([]*mcp.Prompt, error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	return collect(c, "prompts", c.Session.Prompts(ctx, nil), func(p *mcp.Prompt) string { return p.Name })
}

// GetPrompt returns the prompt name with its arguments filled in.
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	res, err := c.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("get prompt %q of MCP server %q: %w", name, c.Name, err)
	}
	return res, nil
}
