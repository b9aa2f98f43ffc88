package mcpserve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/runapi"
)

func TestCheckLoopback(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:8765", "127.0.0.2:0", "[::1]:9000", "localhost:1"} {
		if err := CheckLoopback(addr); err != nil {
			t.Errorf("CheckLoopback(%q) = %v, want nil", addr, err)
		}
	}
	for _, addr := range []string{"0.0.0.0:8765", ":8765", "[::]:1", "192.168.1.2:80", "example.com:80", "8080", ""} {
		err := CheckLoopback(addr)
		if ce := clierr.As(err); err == nil || ce.Code != runapi.CodeListenNotLoopback || ce.Exit != clierr.ExitUsage {
			t.Errorf("CheckLoopback(%q) = %v, want a usage error %s", addr, err, runapi.CodeListenNotLoopback)
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
	var val validator
	defer val.close()
	raw, err := checkInput(d, map[string]any{"name": "Ada"}, &val)
	if err != nil || string(raw) != `{"name":"Ada"}` {
		t.Fatalf("valid input: %s, %v", raw, err)
	}
	_, err = checkInput(d, map[string]any{"name": 1, "loud": true}, &val)
	ce := clierr.As(err)
	if ce.Code != runapi.CodeInputValidation || !strings.Contains(ce.Message, `field "loud"`) || !strings.Contains(ce.Message, `field "name"`) {
		t.Fatalf("invalid input: %#v", ce)
	}
	if _, err := checkInput(d, nil, &val); clierr.As(err).Code != runapi.CodeInputValidation {
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
		line string
		want string
	}{
		{`{"v":1,"type":"model.started","agentId":"exec/wf/agent-1"}`, "model.started agent-1"},
		{`{"v":1,"type":"workflow.log","details":{"message":"phase two"}}`, "workflow.log phase two"},
		{`{"v":1,"type":"model.retry","agentId":"a","details":{"attempt":2,"message":"overloaded"}}`, "model.retry a overloaded"},
		{`{"v":1,"type":"something.new","details":"not an object"}`, "something.new"},
		{`{"v":1,"type":"something.new","details":{"message":"of a kind not known"}}`, "something.new"},
	} {
		e, err := eventapi.Decode([]byte(c.line))
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		if got := eventLine(e); got != c.want {
			t.Errorf("eventLine(%s) = %q, want %q", c.line, got, c.want)
		}
	}
}

// testdata/events-v0.jsonl holds lines of version 0 of the event
// vocabulary kept from real runs, testdata/events-v1.jsonl the same events
// as version 1 writes them: a run's events mixing both give the same
// progress, and run_logs the same events.
func TestProgressOfEveryVersionAlike(t *testing.T) {
	read := func(name string) []string {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	v0, v1 := read("events-v0.jsonl"), read("events-v1.jsonl")
	var stream strings.Builder
	for i := range v0 {
		stream.WriteString(v0[i] + "\n" + v1[i] + "\n")
	}
	var progress []string
	var events []eventapi.Event
	each := eachEvent(func(e eventapi.Event) {
		progress = append(progress, eventLine(e))
		events = append(events, e)
	})
	for _, line := range strings.Split(stream.String()+"not an event", "\n") {
		each([]byte(line))
	}
	if len(progress) != 2*len(v0) {
		t.Fatalf("%d events, want %d", len(progress), 2*len(v0))
	}
	for i := 0; i < len(progress); i += 2 {
		if progress[i] != progress[i+1] {
			t.Errorf("version 0 reports %q, version 1 %q", progress[i], progress[i+1])
		}
		if !reflect.DeepEqual(events[i].Details, events[i+1].Details) {
			t.Errorf("version 0 reads %+v, version 1 %+v", events[i].Details, events[i+1].Details)
		}
	}
	if !slices.Contains(progress, "mcp.progress step 1 of 3") {
		t.Errorf("no MCP progress message in %q", progress)
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
	if got := strings.Join(names, " "); got != "describe_workflow list_workflows run_logs run_result run_status run_workflow start_workflow stop_run" {
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
