package wrappergen

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/fakemcp"
)

// fakeServerTools lists the test server's tools through a real MCP session
// (in memory), as the build's discovery sees them.
func fakeServerTools(t *testing.T) MCPServer {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := fakemcp.NewServer(fakemcp.Options{}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := MCPServer{Workflow: "demo", Name: "issue_tracker"}
	for _, tool := range res.Tools {
		in, _ := json.Marshal(tool.InputSchema)
		mt := MCPTool{Name: tool.Name, Description: tool.Description, Input: in}
		if tool.OutputSchema != nil {
			mt.Output, _ = json.Marshal(tool.OutputSchema)
		}
		s.Tools = append(s.Tools, mt)
	}
	return s
}

func TestMCPWrapperGolden(t *testing.T) {
	got, err := GenerateMCP(fakeServerTools(t))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "mcp", "issue_tracker.golden")
	if *update {
		writeFile(t, golden, string(got))
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("generated MCP wrapper differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
}

func TestMCPWrapperNamesAndErrors(t *testing.T) {
	for tool, method := range map[string]string{"search-issues": "searchIssues", "get_repo": "getRepo", "2fa.check": "tool2faCheck"} {
		if got := methodName(tool); got != method {
			t.Errorf("methodName(%q) = %q, want %q", tool, got, method)
		}
	}
	// A tool named like a method every wrapper has gets another name.
	src, err := GenerateMCP(MCPServer{Workflow: "w", Name: "gh", Tools: []MCPTool{{Name: "resources", Input: json.RawMessage(`{"type":"object"}`)}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `resources2: (input) => client.callTool("resources", input, false)`) || !strings.Contains(string(src), "resources: () => client.resources(),") {
		t.Errorf("a tool named resources:\n%s", src)
	}
	_, err = GenerateMCP(MCPServer{Workflow: "w", Name: "gh", Tools: []MCPTool{{Name: "bad", Input: json.RawMessage(`{"type":"object","properties":{"x":{"$ref":"#/nowhere"}}}`)}}})
	if err == nil || !strings.Contains(err.Error(), `MCP server "gh", tool "bad": input schema at #/properties/x`) {
		t.Fatalf("err = %v", err)
	}
}

// TestMCPWrapperCompilesWithTsc type-checks the golden wrapper and a
// workflow's use of it (with @ts-expect-error negatives) against the real
// SDK declarations, laid out as the build compiles a workflow.
func TestMCPWrapperCompilesWithTsc(t *testing.T) {
	tc := ensureToolchain(t)
	root := newRoot(t)
	copyFile(t, filepath.Join("testdata", "mcp", "issue_tracker.golden"), filepath.Join(root, "parent", "generated", "mcp", "issue_tracker.ts"))
	copyFile(t, filepath.Join("testdata", "usage", "mcp-usage.ts"), filepath.Join(root, "parent", "workflow.ts"))
	out, err := compile(t, tc, root, filepath.Join(root, "parent", "workflow.ts"))
	if err != nil {
		t.Fatalf("tsc rejected the MCP wrapper or its use (%v):\n%s", err, out)
	}
	// The control: the same misuse without its directive fails.
	writeFile(t, filepath.Join(root, "parent", "workflow.ts"), `import connect from "./generated/mcp/issue_tracker.js";
export const out = await (await connect()).add({ a: 1 });
`)
	out, err = compile(t, tc, root, filepath.Join(root, "parent", "workflow.ts"))
	if err == nil || !strings.Contains(out, "parent/workflow.ts(2,") || !strings.Contains(out, "'b'") {
		t.Fatalf("tsc accepted add() without b (%v):\n%s", err, out)
	}
}
