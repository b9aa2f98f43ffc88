package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
)

// handler is a tool's behaviour on decoded arguments.
type handler[In, Out any] func(ctx context.Context, req *mcp.CallToolRequest, in In) (Out, error)

// addTool registers a tool whose input and output schemas are inferred from
// In and Out. Unlike mcp.AddTool, a failure is an isError result carrying
// Stratos's error envelope ({"error": {"code", "message", "details"}}) as
// its text, so a client reads the same code `stratos … --json` prints; no
// structured content then, as it would not match the output schema.
func addTool[In, Out any](s *mcp.Server, t *mcp.Tool, h handler[In, Out]) error {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		return fmt.Errorf("tool %s: output schema: %w", t.Name, err)
	}
	resolved, err := in.Resolve(nil)
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	t.InputSchema, t.OutputSchema = in, out
	s.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := decodeArgs[In](req.Params.Arguments, resolved)
		if err != nil {
			return errorResult(err), nil
		}
		res, err := h(ctx, req, args)
		if err != nil {
			return errorResult(err), nil
		}
		return structured(res)
	})
	return nil
}

// decodeArgs validates the tool's arguments against its input schema and
// decodes them.
func decodeArgs[In any](raw json.RawMessage, schema *jsonschema.Resolved) (In, error) {
	var in In
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return in, clierr.Usage(errcode.CodeUsage, "the arguments are not a JSON object: %v", err)
	}
	if err := schema.Validate(v); err != nil {
		return in, clierr.Usage(errcode.CodeUsage, "invalid arguments: %v", err)
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, clierr.Usage(errcode.CodeUsage, "invalid arguments: %v", err)
	}
	return in, nil
}

// structured is a successful result: the value as structured content, and
// as JSON text for clients that read only text.
func structured(v any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode the result: %w", err)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}, nil
}

// errorResult is err as an isError result with Stratos's error envelope.
func errorResult(err error) *mcp.CallToolResult {
	ce := clierr.As(err)
	env := clierr.Envelope{Error: clierr.EnvelopeBody{Code: ce.Code, Message: ce.Message, Details: ce.Details}}
	b, mErr := json.Marshal(env)
	if mErr != nil {
		b, _ = json.Marshal(clierr.Envelope{Error: clierr.EnvelopeBody{Code: ce.Code, Message: ce.Message}})
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
}
