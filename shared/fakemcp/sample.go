//lint:file-ignore SA1019 sampling is deprecated as of protocol 2026-07-28 (SEP-2577), but sessions on 2025-11-25 and earlier use it: the test server asks for it so that Stratos's answer is tested.

package fakemcp

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// With Options.Sample: the summarize tool asks its client's model for a
// summary (sampling/createMessage) and answers with what came back.
const (
	SummarizeTool = "summarize"
	// SummarizeSystem is the system prompt of its sampling request.
	SummarizeSystem = "You summarise text in one line."
)

// summarizeArgs are the tool's arguments: the text, the request's token
// limit, and what a client must refuse (an image block, a tool).
type summarizeArgs struct {
	Text      string `json:"text"`
	MaxTokens int64  `json:"maxTokens"`
	Image     bool   `json:"image"`
	Tools     bool   `json:"tools"`
}

func addSample(s *mcp.Server) {
	s.AddTool(&mcp.Tool{Name: SummarizeTool, Description: "Asks the client's model to summarise text: its result is the model's answer (content, model, stopReason as JSON).",
		InputSchema: schema(`{"type":"object","properties":{"text":{"type":"string"},"maxTokens":{"type":"integer"},"image":{"type":"boolean"},"tools":{"type":"boolean"}},"required":["text"],"additionalProperties":false}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// A multi round-trip request, as release's: on initialize-era
			// versions the SDK sends sampling/createMessage itself.
			if answer, ok := req.Params.InputResponses["summary"]; ok {
				out, err := json.Marshal(answer)
				if err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{Content: text(string(out))}, nil
			}
			var args summarizeArgs
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"summary": summaryRequest(args)}}, nil
		})
}

func summaryRequest(args summarizeArgs) *mcp.CreateMessageWithToolsParams {
	content := []mcp.Content{&mcp.TextContent{Text: "Summarise: " + args.Text}}
	if args.Image {
		content = append(content, &mcp.ImageContent{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}})
	}
	p := &mcp.CreateMessageWithToolsParams{SystemPrompt: SummarizeSystem, MaxTokens: args.MaxTokens,
		Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: content}}}
	if p.MaxTokens == 0 {
		p.MaxTokens = 100
	}
	if args.Tools {
		p.Tools = []*mcp.Tool{{Name: "search", InputSchema: schema(`{"type":"object"}`)}}
	}
	return p
}
