package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/jsonvalidate/verdict"
)

// handler is a tool's behaviour on decoded arguments.
type handler[In, Out any] func(ctx context.Context, req *mcp.CallToolRequest, in In) (Out, error)

// addTool registers a tool whose input and output schemas are inferred from
// In and Out (the MCP SDK's own schema type, which it lists to clients) in
// their portable form (inferSchema).
// The arguments are checked against the input schema by jsonvalidate (in
// the server's validator process), like every other JSON Schema check of
// Stratos, so a call names every argument at fault. Unlike mcp.AddTool, a failure is an isError result carrying
// Stratos's error envelope ({"error": {"code", "message", "details"}}) as
// its text, so a client reads the same code `stratos … --json` prints; no
// structured content then, as it would not match the output schema.
func addTool[In, Out any](s *mcp.Server, val *validator, t *mcp.Tool, h handler[In, Out]) error {
	in, err := inferSchema[In]()
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	out, err := inferSchema[Out]()
	if err != nil {
		return fmt.Errorf("tool %s: output schema: %w", t.Name, err)
	}
	check, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	t.InputSchema, t.OutputSchema = in, out
	s.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := decodeArgs[In](req.Params.Arguments, check, val)
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
// decodes them. A mismatch names every failing argument, in the message and
// as details.issues ([{path, message}]), as input_validation does for a
// workflow's input.
func decodeArgs[In any](raw, schema json.RawMessage, val *validator) (In, error) {
	var in In
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	issues, err := val.validate(schema, raw)
	if err != nil {
		return in, fmt.Errorf("check the arguments: %w", err)
	}
	if len(issues) > 0 {
		return in, clierr.Usage(errcode.CodeUsage, "invalid arguments: %s", verdict.Text(issues)).
			WithDetails(map[string]any{"issues": issues})
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
