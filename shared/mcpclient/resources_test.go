package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/fakemcp"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// Resources (listed, templated, read) and prompts (listed, filled in) of
// the test server, over both transports and both protocol generations.
func TestResourcesAndPrompts(t *testing.T) {
	cases := []struct {
		name   string
		server func(t *testing.T) mcpdecl.Server
	}{
		{"http-modern", func(t *testing.T) mcpdecl.Server { return httpServer(t, false) }},
		{"http-legacy", func(t *testing.T) mcpdecl.Server { return httpServer(t, true) }},
		{"stdio-modern", func(t *testing.T) mcpdecl.Server { return stdioServer(t, "modern") }},
		{"stdio-legacy", func(t *testing.T) mcpdecl.Server { return stdioServer(t, "legacy") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			client, err := Connect(ctx, c.server(t), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			resources, err := client.Resources(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(resources) != 1 || resources[0].URI != fakemcp.ReadmeURI {
				t.Errorf("resources = %v", resources)
			}
			templates, err := client.ResourceTemplates(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(templates) != 1 || templates[0].URITemplate != fakemcp.IssueTemplate {
				t.Errorf("templates = %v", templates)
			}
			for uri, want := range map[string]string{fakemcp.ReadmeURI: fakemcp.ReadmeText, "fake://issues/42": "Issue 42"} {
				res, err := client.ReadResource(ctx, uri, 0)
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Contents) != 1 || res.Contents[0].Text != want {
					t.Errorf("read %s = %+v, want %q", uri, res.Contents, want)
				}
			}
			if _, err := client.ReadResource(ctx, "fake://nothing", 0); err == nil || !strings.Contains(err.Error(), `read resource "fake://nothing" of MCP server "fake"`) {
				t.Errorf("reading an unknown resource: err = %v", err)
			}
			prompts, err := client.Prompts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(prompts) != 1 || prompts[0].Name != fakemcp.GreetPrompt || len(prompts[0].Arguments) != 1 {
				t.Errorf("prompts = %v", prompts)
			}
			got, err := client.GetPrompt(ctx, fakemcp.GreetPrompt, map[string]string{"name": "Ada"})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Messages) != 1 {
				t.Fatalf("messages = %v", got.Messages)
			}
			if text, _ := got.Messages[0].Content.(*mcp.TextContent); text == nil || text.Text != "Say hello to Ada." {
				t.Errorf("prompt message = %#v", got.Messages[0].Content)
			}
		})
	}
}

// A server whose prompt list goes on past MaxListed (page after page) is
// refused with a ListTooLongError instead of being read forever.
func TestListsStopAtMaxListed(t *testing.T) {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "1"}, &mcp.ServerOptions{PageSize: 1000})
	for i := range MaxListed + 1 {
		server.AddPrompt(&mcp.Prompt{Name: fmt.Sprintf("p%05d", i)}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{}, nil
		})
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	_, err = (&Client{Name: "many", Session: cs}).Prompts(ctx)
	var tooLong *ListTooLongError
	if !errors.As(err, &tooLong) || tooLong.Limit != MaxListed || tooLong.What != "prompts" {
		t.Fatalf("err = %v, want a ListTooLongError for prompts", err)
	}
	if want := `MCP server "many" lists more than 10000 prompts`; !strings.Contains(err.Error(), want) {
		t.Errorf("err = %q, want it to contain %q", err, want)
	}
}
