package fakemcp

import (
	"context"
	"strconv"
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

// With Options.Links: the open-issue tool links to the issue (a resource
// of IssueTemplate) and to LogoURI, a binary resource of LogoBytes.
const (
	OpenIssueTool = "open-issue"
	LogoURI       = "fake://logo.png"
)

// LogoBytes are the binary resource's bytes: a PNG signature, which is not
// UTF-8, so only a blob carries it intact.
var LogoBytes = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}

func addLinks(s *mcp.Server) {
	s.AddResource(&mcp.Resource{URI: LogoURI, Name: "logo", MIMEType: "image/png", Description: "A binary resource."},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "image/png", Blob: LogoBytes}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: OpenIssueTool, Description: "Opens an issue: its result links to the issue and to the logo.",
		InputSchema: schema(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"],"additionalProperties":false}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			in, err := args[struct{ ID int }](req)
			if err != nil {
				return nil, err
			}
			id := strconv.Itoa(in.ID)
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "Issue " + id + " is open."},
				&mcp.ResourceLink{URI: "fake://issues/" + id, Name: "issue " + id, MIMEType: "text/plain"},
				&mcp.ResourceLink{URI: LogoURI, Name: "logo", MIMEType: "image/png"},
			}}, nil
		})
}
