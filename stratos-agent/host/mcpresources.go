package host

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/mcpclient"
)

// The server's resources and prompts, asked for by workflow code on the
// client's connection (the one its tool calls use), each request bounded
// like a tool call: the request, the client's close, the timeout.

// serveFeature answers the resource (subscriptions too) and prompt methods.
func (d *directClients) serveFeature(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case agentproto.MethodMCPReadResource:
		var p agentproto.MCPReadResourceParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		return d.readResource(ctx, p)
	case agentproto.MethodMCPGetPrompt:
		var p agentproto.MCPGetPromptParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		return d.getPrompt(ctx, p)
	case agentproto.MethodMCPSubscribe, agentproto.MethodMCPUnsubscribe:
		var p agentproto.MCPSubscribeParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		return d.subscription(ctx, method, p)
	}
	var p agentproto.MCPClientRef
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	switch method {
	case agentproto.MethodMCPResources:
		return d.resources(ctx, p.ClientID)
	case agentproto.MethodMCPResourceTemplates:
		return d.resourceTemplates(ctx, p.ClientID)
	case agentproto.MethodMCPPrompts:
		return d.prompts(ctx, p.ClientID)
	}
	return nil, agentproto.Errorf(agentproto.CodeProtocol, "unknown MCP method %q", method)
}

// request runs fn on a ready client, ended by the request, the client's
// close or the timeout; what names the request in errors.
func (d *directClients) request(ctx context.Context, id string, what request, fn func(context.Context, *mcpclient.Client) error) error {
	c, err := d.ready(id)
	if err != nil {
		return err
	}
	rctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	stop := context.AfterFunc(c.ctx, cancel)
	defer stop()
	if err := fn(rctx, c.conn); err != nil {
		return requestError(c, what, rctx, err, d.timeout)
	}
	return nil
}

func (d *directClients) resources(ctx context.Context, id string) (*agentproto.MCPResourcesResult, error) {
	out := &agentproto.MCPResourcesResult{Resources: []agentproto.MCPResource{}}
	err := d.request(ctx, id, request{text: "listing resources"}, func(ctx context.Context, conn *mcpclient.Client) error {
		list, err := conn.Resources(ctx)
		for _, r := range list {
			out.Resources = append(out.Resources, agentproto.MCPResource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Size: r.Size})
		}
		return err
	})
	return out, err
}

func (d *directClients) resourceTemplates(ctx context.Context, id string) (*agentproto.MCPResourceTemplatesResult, error) {
	out := &agentproto.MCPResourceTemplatesResult{ResourceTemplates: []agentproto.MCPResourceTemplate{}}
	err := d.request(ctx, id, request{text: "listing resource templates"}, func(ctx context.Context, conn *mcpclient.Client) error {
		list, err := conn.ResourceTemplates(ctx)
		for _, t := range list {
			out.ResourceTemplates = append(out.ResourceTemplates, agentproto.MCPResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType})
		}
		return err
	})
	return out, err
}

func (d *directClients) prompts(ctx context.Context, id string) (*agentproto.MCPPromptsResult, error) {
	out := &agentproto.MCPPromptsResult{Prompts: []agentproto.MCPPrompt{}}
	err := d.request(ctx, id, request{text: "listing prompts"}, func(ctx context.Context, conn *mcpclient.Client) error {
		list, err := conn.Prompts(ctx)
		for _, p := range list {
			prompt := agentproto.MCPPrompt{Name: p.Name, Title: p.Title, Description: p.Description}
			for _, a := range p.Arguments {
				prompt.Arguments = append(prompt.Arguments, agentproto.MCPPromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
			}
			out.Prompts = append(out.Prompts, prompt)
		}
		return err
	})
	return out, err
}

func (d *directClients) readResource(ctx context.Context, p agentproto.MCPReadResourceParams) (*agentproto.MCPReadResourceResult, error) {
	if p.URI == "" {
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "mcp.readResource: uri is required")
	}
	limit := p.MaxBytes
	if limit == 0 {
		limit = agentproto.DefaultResourceLimit
	}
	if limit < 0 || limit > agentproto.MaxResourceLimit {
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "mcp.readResource: maxBytes must be between 1 and %d, got %d", agentproto.MaxResourceLimit, p.MaxBytes)
	}
	what := request{text: fmt.Sprintf("resource %q", p.URI), details: map[string]any{"uri": p.URI}}
	var out *agentproto.MCPReadResourceResult
	err := d.request(ctx, p.ClientID, what, func(ctx context.Context, conn *mcpclient.Client) error {
		res, err := conn.ReadResource(ctx, p.URI, limit)
		var tooLarge *mcpclient.ResourceTooLargeError
		if errors.As(err, &tooLarge) {
			return agentproto.Errorf(agentproto.CodeMCPResourceTooLarge, "%v (readResource's maxBytes, at most %d)", tooLarge, agentproto.MaxResourceLimit).
				WithDetails(map[string]any{"server": conn.Name, "uri": p.URI, "limit": limit}).Wrap(err)
		}
		if err != nil {
			return err
		}
		out, err = resourceContents(conn.Name, p.URI, res, limit)
		return err
	})
	return out, err
}

// resourceContents is a read's contents for the workflow, refused when
// they hold more than limit bytes. The transport has stopped reading a
// response that cannot fit (mcpclient.ReadResource); this is the exact
// count, of the decoded contents.
func resourceContents(server, uri string, res *mcp.ReadResourceResult, limit int) (*agentproto.MCPReadResourceResult, error) {
	size := 0
	for _, c := range res.Contents {
		size += len(c.Text) + len(c.Blob)
	}
	if size > limit {
		return nil, agentproto.Errorf(agentproto.CodeMCPResourceTooLarge, "MCP server %q, resource %q: %d bytes, over the limit of %d (readResource's maxBytes, at most %d)", server, uri, size, limit, agentproto.MaxResourceLimit).
			WithDetails(map[string]any{"server": server, "uri": uri, "limit": limit, "size": size})
	}
	out := &agentproto.MCPReadResourceResult{Contents: make([]agentproto.MCPResourceContents, 0, len(res.Contents))}
	for _, c := range res.Contents {
		item := agentproto.MCPResourceContents{URI: c.URI, MIMEType: c.MIMEType}
		if c.Blob != nil {
			blob := base64.StdEncoding.EncodeToString(c.Blob)
			item.Blob = &blob
		} else {
			text := c.Text
			item.Text = &text
		}
		out.Contents = append(out.Contents, item)
	}
	return out, nil
}

func (d *directClients) getPrompt(ctx context.Context, p agentproto.MCPGetPromptParams) (*agentproto.MCPGetPromptResult, error) {
	if p.Name == "" {
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "mcp.getPrompt: name is required")
	}
	what := request{text: fmt.Sprintf("prompt %q", p.Name), details: map[string]any{"prompt": p.Name}}
	var out *agentproto.MCPGetPromptResult
	err := d.request(ctx, p.ClientID, what, func(ctx context.Context, conn *mcpclient.Client) error {
		res, err := conn.GetPrompt(ctx, p.Name, p.Arguments)
		if err != nil {
			return err
		}
		out = &agentproto.MCPGetPromptResult{Description: res.Description, Messages: make([]agentproto.MCPPromptMessage, 0, len(res.Messages))}
		for _, m := range res.Messages {
			content, err := json.Marshal(m.Content)
			if err != nil {
				return agentproto.Errorf(agentproto.CodeMCPProtocol, "MCP server %q, prompt %q: unreadable content: %v", conn.Name, p.Name, err)
			}
			out.Messages = append(out.Messages, agentproto.MCPPromptMessage{Role: string(m.Role), Content: content})
		}
		return nil
	})
	return out, err
}

// isAgentError reports whether err already carries its agent error code.
func isAgentError(err error) bool {
	var ae *agentproto.Error
	return errors.As(err, &ae)
}
