package mcpclient

import (
	"context"
	"fmt"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resources lists every resource the server offers, sorted by URI.
func (c *Client) Resources(ctx context.Context) ([]*mcp.Resource, error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	var out []*mcp.Resource
	for r, err := range c.Session.Resources(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list the resources of MCP server %q: %w", c.Name, err)
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	return out, nil
}

// ResourceTemplates lists every resource template the server offers,
// sorted by URI template.
func (c *Client) ResourceTemplates(ctx context.Context) ([]*mcp.ResourceTemplate, error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	var out []*mcp.ResourceTemplate
	for t, err := range c.Session.ResourceTemplates(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list the resource templates of MCP server %q: %w", c.Name, err)
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URITemplate < out[j].URITemplate })
	return out, nil
}

// ReadResource reads the resource at uri: a listed resource, one a
// template names, or one a tool result links to.
func (c *Client) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	res, err := c.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, fmt.Errorf("read resource %q of MCP server %q: %w", uri, c.Name, err)
	}
	return res, nil
}

// Prompts lists every prompt the server offers, sorted by name.
func (c *Client) Prompts(ctx context.Context) ([]*mcp.Prompt, error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	var out []*mcp.Prompt
	for p, err := range c.Session.Prompts(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list the prompts of MCP server %q: %w", c.Name, err)
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
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
