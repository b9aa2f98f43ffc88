package mcpclient

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/mcpdecl"
	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

// everythingServer is the official test server of MCP clients,
// @modelcontextprotocol/server-everything (pinned and installed by
// scripts/prepare-test-cache, $STRATOS_TEST_MCP_EVERYTHING), on stdio.
func everythingServer(t *testing.T) mcpdecl.Server {
	t.Helper()
	script := os.Getenv("STRATOS_TEST_MCP_EVERYTHING")
	if script == "" {
		t.Fatal("STRATOS_TEST_MCP_EVERYTHING is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which installs the pinned @modelcontextprotocol/server-everything and sets it")
	}
	return mcpdecl.Server{Name: "everything", Transport: mcpdecl.TransportStdio, Command: toolchaintest.Ensure(t).Node,
		Args: []string{script, "stdio"}, Cwd: t.TempDir()}
}

// Tools, resources (a link in a tool result followed, a template read)
// and prompts against a server that is not ours.
func TestAgainstServerEverything(t *testing.T) {
	ctx := context.Background()
	c, err := Connect(ctx, everythingServer(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	echo, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := echo.Content[0].(*mcp.TextContent); text == nil || text.Text != "Echo: hi" {
		t.Errorf("echo = %#v", echo.Content)
	}

	// A tool it does not have and arguments its schema refuses are tool
	// errors (isError results), not JSON-RPC errors: workflow code gets an
	// McpToolError for them from such a server (docs/mcp.md, Errors).
	for name, args := range map[string]map[string]any{"no-such-tool": {}, "echo": {"message": 5}} {
		res, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || !res.IsError {
			t.Errorf("call %s %v = %+v, %v; want an isError result", name, args, res, err)
		}
	}

	links, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "get-resource-links", Arguments: map[string]any{"count": 2}})
	if err != nil {
		t.Fatal(err)
	}
	followed := 0
	for _, content := range links.Content {
		link, ok := content.(*mcp.ResourceLink)
		if !ok {
			continue
		}
		res, err := c.ReadResource(ctx, link.URI, 0)
		if err != nil {
			t.Fatalf("follow the link to %s: %v", link.URI, err)
		}
		if len(res.Contents) != 1 || res.Contents[0].URI != link.URI || (res.Contents[0].Text == "" && len(res.Contents[0].Blob) == 0) {
			t.Errorf("%s = %+v", link.URI, res.Contents)
		}
		followed++
	}
	if followed != 2 {
		t.Errorf("followed %d resource links, want 2: %#v", followed, links.Content)
	}

	resources, err := c.Resources(ctx)
	if err != nil || len(resources) == 0 {
		t.Fatalf("resources = %v, %v", resources, err)
	}
	templates, err := c.ResourceTemplates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var textTemplate string
	for _, tpl := range templates {
		if strings.Contains(tpl.URITemplate, "/text/") {
			textTemplate = tpl.URITemplate
		}
	}
	uri := strings.Replace(textTemplate, "{resourceId}", "1", 1)
	res, err := c.ReadResource(ctx, uri, 0)
	if err != nil || len(res.Contents) != 1 || !strings.HasPrefix(res.Contents[0].Text, "Resource 1:") {
		t.Errorf("read %s (from template %q) = %v, %v", uri, textTemplate, res, err)
	}

	prompts, err := c.Prompts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(prompts))
	for _, p := range prompts {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "args-prompt") || !strings.Contains(got, "simple-prompt") {
		t.Fatalf("prompts = %s", got)
	}
	got, err := c.GetPrompt(ctx, "args-prompt", map[string]string{"city": "Lisbon"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) == 0 {
		t.Fatalf("args-prompt has no messages")
	}
	if text, _ := got.Messages[0].Content.(*mcp.TextContent); text == nil || !strings.Contains(text.Text, "Lisbon") {
		t.Errorf("args-prompt did not fill in its argument: %#v", got.Messages[0].Content)
	}
}
