package mcpclient

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// The actions of an elicitation result.
const (
	elicitAccept  = "accept"
	elicitDecline = "decline"
)

// ElicitFunc answers one elicitation request. The SDK has checked the
// request's form before the call, and checks an accepted answer's content
// against it after.
type ElicitFunc func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)

// elicitationHandler answers the server's elicitation requests: with the
// workflow's own handler when it supplies one, else as the declaration
// says: nil for the default policy, refuse, so that the client declares no
// elicitation capability at all (servers hide the tools that need it, or go
// on without); acceptDefaults for accept-defaults. Neither policy waits: a
// run has nobody to ask.
func elicitationHandler(server mcpdecl.Server, handler ElicitFunc) ElicitFunc {
	if handler != nil {
		return handler
	}
	if server.Elicitation != mcpdecl.ElicitationAcceptDefaults {
		return nil
	}
	return func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return acceptDefaults(req.Params), nil
	}
}

// formSchema is what acceptDefaults reads of a form's requested schema:
// the protocol allows only a flat object of primitive properties.
type formSchema struct {
	Properties map[string]struct {
		Default json.RawMessage `json:"default"`
	} `json:"properties"`
	Required []string `json:"required"`
}

// acceptDefaults accepts a form with the defaults its schema gives, as a
// person who submits it unchanged would. A form that requires a value
// without a default, a schema it cannot read, or a URL to visit (nobody
// would) is declined: an answer Stratos would have to make up is no answer.
func acceptDefaults(p *mcp.ElicitParams) *mcp.ElicitResult {
	decline := &mcp.ElicitResult{Action: elicitDecline}
	if p == nil || p.URL != "" || (p.Mode != "" && p.Mode != "form") {
		return decline
	}
	content := map[string]any{}
	if p.RequestedSchema != nil {
		raw, err := json.Marshal(p.RequestedSchema)
		if err != nil {
			return decline
		}
		var schema formSchema
		if err := json.Unmarshal(raw, &schema); err != nil {
			return decline
		}
		for name, prop := range schema.Properties {
			var v any
			if len(prop.Default) > 0 && json.Unmarshal(prop.Default, &v) == nil && v != nil {
				content[name] = v
			}
		}
		for _, name := range schema.Required {
			if _, ok := content[name]; !ok {
				return decline
			}
		}
	}
	return &mcp.ElicitResult{Action: elicitAccept, Content: content}
}
