package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/mcpclient"
	rpc "github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// ElicitTimeout bounds the wait for a workflow's elicitation handler: one
// that has not answered by then is taken as a decline, so a tool call never
// waits for a handler that waits for somebody who is not there.
const ElicitTimeout = time.Minute

// elicitHandler is the client's elicitation handler when the workflow
// supplies its own: the server's form goes to the SDK (mcp.elicit).
func (d *directClients) elicitHandler(c *directClient) mcpclient.ElicitFunc {
	return func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return d.elicit(ctx, c, req.Params)
	}
}

// elicit asks the workflow's handler. A URL to visit is declined without
// asking (nobody would visit it); a handler that fails or does not answer
// within the timeout declines, and its failure goes to stderr; an accepted
// answer whose content does not fit the form is an error naming the field,
// sent to the server instead of the content.
func (d *directClients) elicit(ctx context.Context, c *directClient, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	decline := &mcp.ElicitResult{Action: agentproto.ElicitDecline}
	if p == nil || p.URL != "" || (p.Mode != "" && p.Mode != "form") {
		return decline, nil
	}
	schema, err := json.Marshal(p.RequestedSchema)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unreadable requested schema: %v", err)}
	}
	params := agentproto.MCPElicitParams{ClientID: c.id, Server: c.server, Message: p.Message, RequestedSchema: schema}
	wctx, cancel := context.WithTimeout(ctx, d.elicitTimeout)
	defer cancel()
	stop := context.AfterFunc(c.ctx, cancel)
	defer stop()
	var res agentproto.MCPElicitResult
	if err := d.peer().Call(wctx, agentproto.MethodMCPElicit, params, &res); err != nil {
		d.warnElicit(c, elicitFailure(wctx, err, d.elicitTimeout))
		return decline, nil
	}
	switch res.Action {
	case agentproto.ElicitDecline, agentproto.ElicitCancel:
		return &mcp.ElicitResult{Action: res.Action}, nil
	case agentproto.ElicitAccept:
		content, err := formContent(schema, res.Content)
		if err != nil {
			msg := fmt.Sprintf("the workflow's elicitation handler answered content that does not fit the form: %v", err)
			d.warnElicit(c, msg)
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
		}
		return &mcp.ElicitResult{Action: agentproto.ElicitAccept, Content: content}, nil
	}
	msg := fmt.Sprintf("the workflow's elicitation handler answered unknown action %q (accept, decline or cancel)", res.Action)
	d.warnElicit(c, msg)
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// elicitFailure says why the handler gave no answer.
func elicitFailure(ctx context.Context, err error, timeout time.Duration) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("the workflow's elicitation handler did not answer within %s; declined", timeout)
	}
	var re *rpc.RemoteError
	if errors.As(err, &re) {
		return fmt.Sprintf("the workflow's elicitation handler failed: %s; declined", re.Message)
	}
	return fmt.Sprintf("the workflow's elicitation handler gave no answer: %v; declined", err)
}

func (d *directClients) warnElicit(c *directClient, msg string) {
	fmt.Fprintf(d.stderr, "stratos: MCP server %q: %s\n", c.server, msg)
}

// formContent checks an accepted answer against the form it answers: an
// object whose fields the schema allows, with the values it allows.
// Errors name the field.
func formContent(schema, content json.RawMessage) (map[string]any, error) {
	var fields map[string]any
	if err := json.Unmarshal(content, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("content must be an object of the form's fields, got %s", truncate(content))
	}
	var s jsonschema.Schema
	if len(schema) > 0 && string(schema) != "null" {
		if err := json.Unmarshal(schema, &s); err != nil {
			return nil, fmt.Errorf("unreadable requested schema: %w", err)
		}
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("unusable requested schema: %w", err)
	}
	if err := resolved.Validate(fields); err != nil {
		return nil, err
	}
	return fields, nil
}

func truncate(raw json.RawMessage) string {
	const most = 200
	if len(raw) == 0 {
		return "nothing"
	}
	if len(raw) > most {
		return string(raw[:most]) + "..."
	}
	return string(raw)
}
