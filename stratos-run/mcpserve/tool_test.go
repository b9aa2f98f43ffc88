package mcpserve

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
)

// callTool calls a tool of a new server over an in-memory session and
// returns its result.
func callTool(t *testing.T, name string, args json.RawMessage) *mcp.CallToolResult {
	t.Helper()
	s, err := New(Options{Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	ctx := context.Background()
	clientEnd, serverEnd := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, serverEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestArgumentsNameEveryField: arguments that do not match a tool's input
// schema are refused before the tool does anything, naming every argument
// at fault (here two), sorted by path, in the message and details.issues.
func TestArgumentsNameEveryField(t *testing.T) {
	res := callTool(t, "run_workflow", json.RawMessage(`{"input": {}, "overrides": 5, "extra": true}`))
	if !res.IsError || len(res.Content) != 1 {
		t.Fatalf("result: %#v", res)
	}
	var env clierr.Envelope
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &env); err != nil {
		t.Fatal(err)
	}
	want := `invalid arguments: field "extra": unknown field (not in the schema); field "name": required field is missing; field "overrides": got number, want object`
	if env.Error.Code != errcode.CodeUsage || env.Error.Message != want {
		t.Errorf("error %s %q\nwant %s %q", env.Error.Code, env.Error.Message, errcode.CodeUsage, want)
	}
	issues, _ := json.Marshal(env.Error.Details["issues"])
	wantIssues := `[{"message":"unknown field (not in the schema)","path":"extra"},{"message":"required field is missing","path":"name"},{"message":"got number, want object","path":"overrides"}]`
	if string(issues) != wantIssues {
		t.Errorf("details.issues = %s\nwant %s", issues, wantIssues)
	}
}

// TestDecodeArgs: arguments that match are decoded; none at all are {};
// what is not an object is refused as a whole.
func TestDecodeArgs(t *testing.T) {
	in, err := jsonschema.For[RunInput](nil)
	if err != nil {
		t.Fatal(err)
	}
	check, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var val validator
	defer val.close()
	got, err := decodeArgs[RunInput](json.RawMessage(`{"name": "greet", "input": {"who": "Ada"}}`), check, &val)
	if err != nil || got.Name != "greet" || got.Input["who"] != "Ada" {
		t.Errorf("decoded %+v, %v", got, err)
	}
	if _, err := decodeArgs[RunInput](nil, check, &val); clierr.As(err).Message != `invalid arguments: field "name": required field is missing` {
		t.Errorf("no arguments: %v", err)
	}
	for _, raw := range []string{`[]`, `"greet"`, `{`} {
		_, err := decodeArgs[RunInput](json.RawMessage(raw), check, &val)
		if ce := clierr.As(err); ce.Code != errcode.CodeUsage || !strings.HasPrefix(ce.Message, "invalid arguments: ") || strings.Contains(ce.Message, "field ") {
			t.Errorf("arguments %s: %v, want one usage error for the whole value", raw, err)
		}
	}
}
