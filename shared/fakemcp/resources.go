package fakemcp

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resources and prompts of the test server, for the client's resources
// and prompts: one static resource, one template and one prompt with an
// argument.
const (
	ReadmeURI     = "fake://readme"
	ReadmeText    = "The fake MCP server's readme."
	IssueTemplate = "fake://issues/{id}"
	GreetPrompt   = "greet"
)

func addResourcesAndPrompts(s *mcp.Server) {
	s.AddResource(&mcp.Resource{URI: ReadmeURI, Name: "readme", MIMEType: "text/plain", Description: "A static text resource."},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return textResource(req.Params.URI, ReadmeText), nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: IssueTemplate, Name: "issue", MIMEType: "text/plain", Description: "An issue by its id."},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			id, ok := strings.CutPrefix(req.Params.URI, "fake://issues/")
			if !ok || id == "" {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			return textResource(req.Params.URI, "Issue "+id), nil
		})
	s.AddPrompt(&mcp.Prompt{Name: GreetPrompt, Description: "Greets someone by name.",
		Arguments: []*mcp.PromptArgument{{Name: "name", Description: "Who to greet", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: "A greeting",
				Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Say hello to " + req.Params.Arguments["name"] + "."}}}}, nil
		})
}

func textResource(uri, text string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}}
}
