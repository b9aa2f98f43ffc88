package fakemcp

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// With Options.Elicit: the release tool asks its client for a form
// (elicitation/create) and answers with what came back.
const (
	ReleaseTool = "release"
	// ReleaseForm is the form it asks for: a required branch and an
	// optional confirmation.
	ReleaseForm = `{"type":"object","properties":{"branch":{"type":"string","description":"Branch to release"},"confirm":{"type":"boolean"}},"required":["branch"]}`
)

func addElicit(s *mcp.Server) {
	s.AddTool(&mcp.Tool{Name: ReleaseTool, Description: "Asks which branch to release: its result is the client's answer (action and content as JSON).",
		InputSchema: schema(`{"type":"object","additionalProperties":false}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// A multi round-trip request: the first call asks, the retry
			// carries the answer (on initialize-era versions the SDK sends
			// elicitation/create itself).
			answer, ok := req.Params.InputResponses["release"].(*mcp.ElicitResult)
			if !ok {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
					"release": &mcp.ElicitParams{Message: "Which branch?", RequestedSchema: json.RawMessage(ReleaseForm)},
				}}, nil
			}
			out, err := json.Marshal(answer)
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: text(string(out))}, nil
		})
}
