package mcpserve

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
)

func TestCheckLoopback(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:8765", "127.0.0.2:0", "[::1]:9000", "localhost:1"} {
		if err := CheckLoopback(addr); err != nil {
			t.Errorf("CheckLoopback(%q) = %v, want nil", addr, err)
		}
	}
	for _, addr := range []string{"0.0.0.0:8765", ":8765", "[::]:1", "192.168.1.2:80", "example.com:80", "8080", ""} {
		err := CheckLoopback(addr)
		if ce := clierr.As(err); err == nil || ce.Code != agentapi.CodeListenNotLoopback || ce.Exit != clierr.ExitUsage {
			t.Errorf("CheckLoopback(%q) = %v, want a usage error %s", addr, err, agentapi.CodeListenNotLoopback)
		}
	}
}

func TestCheckInputNamesEveryField(t *testing.T) {
	d := Description{Name: "greet", Input: map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"name": map[string]any{"type": "string"}},
		"required":             []any{"name"},
		"additionalProperties": false,
	}}
	raw, err := checkInput(d, map[string]any{"name": "Ada"})
	if err != nil || string(raw) != `{"name":"Ada"}` {
		t.Fatalf("valid input: %s, %v", raw, err)
	}
	_, err = checkInput(d, map[string]any{"name": 1, "loud": true})
	ce := clierr.As(err)
	if ce.Code != agentapi.CodeInputValidation || !strings.Contains(ce.Message, `field "loud"`) || !strings.Contains(ce.Message, `field "name"`) {
		t.Fatalf("invalid input: %#v", ce)
	}
	if _, err := checkInput(d, nil); clierr.As(err).Code != agentapi.CodeInputValidation {
		t.Fatalf("no input for a required field: %v", err)
	}
}

func TestErrorResultCarriesTheEnvelope(t *testing.T) {
	res := errorResult(clierr.Usage("workflow_not_found", "no such workflow").WithDetails(map[string]any{"name": "x"}))
	if !res.IsError || len(res.Content) != 1 || res.StructuredContent != nil {
		t.Fatalf("result: %#v", res)
	}
	var env clierr.Envelope
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &env); err != nil {
		t.Fatal(err)
	}
	if env.Error.Code != "workflow_not_found" || env.Error.Message != "no such workflow" || env.Error.Details["name"] != "x" {
		t.Fatalf("envelope: %+v", env)
	}
}

func TestEventLine(t *testing.T) {
	for _, c := range []struct {
		ev   map[string]any
		want string
	}{
		{map[string]any{"type": "model.started", "agentId": "exec/wf/agent-1"}, "model.started agent-1"},
		{map[string]any{"type": "log", "details": map[string]any{"message": "phase two"}}, "log phase two"},
		{map[string]any{"type": "something.new", "details": "not an object"}, "something.new"},
	} {
		if got := eventLine(c.ev); got != c.want {
			t.Errorf("eventLine(%v) = %q, want %q", c.ev, got, c.want)
		}
	}
}

// Every tool declares object input and output schemas, so clients can
// check arguments and read structured content.
func TestToolsHaveInputAndOutputSchemas(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := t.Context()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var names []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
		for what, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			m, ok := schema.(map[string]any)
			if !ok || m["type"] != "object" {
				t.Errorf("%s: %s schema %v, want an object schema", tool.Name, what, schema)
			}
		}
	}
	if got := strings.Join(names, " "); got != "describe_workflow list_workflows run_logs run_status run_workflow stop_run" {
		t.Errorf("tools: %s", got)
	}
}

// A closed server starts no run: Close has cancelled everything it will
// wait for.
func TestClosedServerStartsNoRun(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s.admit() {
		t.Fatal("a closed server admitted a run")
	}
}
