package claudecode

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

func TestArgvIsTheRecommendedCommandLine(t *testing.T) {
	l := launch{sessionID: "S", model: "claude-opus-4-7", effort: "high", disallowed: []string{"Bash", "Write"},
		jsonSchema: json.RawMessage(`{"type":"object"}`), mcpConfigFile: "/tmp/x/mcp-config.json"}
	want := []string{"--output-format=stream-json", "--verbose", "--input-format=stream-json", "--include-partial-messages",
		"--setting-sources=", "--strict-mcp-config", "--permission-mode=default", "--permission-prompt-tool=stdio",
		"--session-id=S", "--mcp-config=/tmp/x/mcp-config.json", "--model=claude-opus-4-7", "--effort=high",
		"--disallowedTools=Bash,Write", `--json-schema={"type":"object"}`}
	if got := l.argv(); !reflect.DeepEqual(got, want) {
		t.Errorf("argv\n got %q\nwant %q", got, want)
	}
	l = launch{sessionID: "S", resume: true}
	if got := l.argv(); !slices.Contains(got, "--resume=S") || slices.Contains(got, "--session-id=S") || slices.ContainsFunc(got, func(a string) bool { return strings.HasPrefix(a, "--model") }) {
		t.Errorf("resumed argv %q", got)
	}
}

func TestNativeSchemaDropsTheDraftDeclaration(t *testing.T) {
	got := nativeSchema(json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`))
	if string(got) != `{"type":"object"}` {
		t.Errorf("got %s", got)
	}
}

func TestChildEnvSanitizes(t *testing.T) {
	in := []string{"PATH=/bin", "CLAUDECODE=1", "NODE_OPTIONS=--x", "ANTHROPIC_API_KEY=k", "ANTHROPIC_BASE_URL=http://127.0.0.1:1",
		"CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_DISABLE_AUTO_MEMORY=0"}
	keys := []string{"CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX"}
	got := childEnv(in, keys, map[string]string{"CLAUDE_CODE_USE_VERTEX": "1"}, true)
	want := []string{"PATH=/bin", "ANTHROPIC_API_KEY=k", "ANTHROPIC_BASE_URL=http://127.0.0.1:1", "BUN_ENABLE_CRASH_REPORTING=0",
		"CLAUDE_CODE_DISABLE_AUTO_MEMORY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_SDK_READS_SESSION_STATE=1", "CLAUDE_CODE_USE_VERTEX=1",
		"MCP_CONNECTION_NONBLOCKING=0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("env\n got %q\nwant %q", got, want)
	}
	// Without an explicit provider the inspected backend's flags stay.
	if got := childEnv(in, keys, map[string]string{"CLAUDE_CODE_USE_BEDROCK": "1"}, false); !slices.Contains(got, "CLAUDE_CODE_USE_BEDROCK=1") {
		t.Errorf("inspected backend flag dropped: %q", got)
	}
}

func TestInspectBackend(t *testing.T) {
	flags := map[string]map[string]string{"anthropic": nil, "amazon-bedrock": {"CLAUDE_CODE_USE_BEDROCK": "1"},
		"google-vertex-anthropic": {"CLAUDE_CODE_USE_VERTEX": "1"}}
	for env, want := range map[string]string{"": "anthropic", "CLAUDE_CODE_USE_BEDROCK=1": "amazon-bedrock",
		"CLAUDE_CODE_USE_BEDROCK=0": "anthropic", "CLAUDE_CODE_USE_VERTEX=true": "google-vertex-anthropic"} {
		got, err := inspectBackend(flags, []string{env})
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", env, got, err, want)
		}
	}
	_, err := inspectBackend(flags, []string{"CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_USE_VERTEX=1"})
	if agentproto.CodeOf(err) != agentproto.CodeConfiguration {
		t.Errorf("two backends: %v", err)
	}
}

func TestReplaceOutputKeepsTheToolsShape(t *testing.T) {
	cases := map[string]string{
		`{"stdout":"secret","stderr":"warn","interrupted":false,"isImage":false}`:                               `{"interrupted":false,"isImage":false,"stderr":"","stdout":"R"}`,
		`{"type":"text","file":{"filePath":"/a","content":"secret","numLines":1,"startLine":1,"totalLines":1}}`: `{"file":{"content":"R","filePath":"","numLines":1,"startLine":1,"totalLines":1},"type":"text"}`,
		`[{"type":"text","text":"secret"}]`:                                                                     `[{"text":"R","type":"text"}]`,
		`"secret"`:                                                                                              `"R"`,
		`{"filenames":["a","b"],"numFiles":2}`:                                                                  `{"filenames":["R"],"numFiles":2}`,
		``:                                                                                                      `"R"`,
	}
	for in, want := range cases {
		got, _ := json.Marshal(replaceOutput(json.RawMessage(in), "R"))
		if string(got) != want {
			t.Errorf("%s\n got %s\nwant %s", in, got, want)
		}
	}
}

func TestOutcomeClassification(t *testing.T) {
	status := 404
	cases := []struct {
		name     string
		r        resultFrame
		apiError string
		schema   bool
		code     string
	}{
		{"model not found", resultFrame{Subtype: "success", IsError: true, APIErrorStatus: &status, APIErrorType: "not_found_error"}, "model_not_found", false, agentproto.CodeModelUnavailable},
		{"404 without the native class", resultFrame{Subtype: "success", IsError: true, APIErrorStatus: &status}, "", false, agentproto.CodeExecution},
		{"auth", resultFrame{Subtype: "success", IsError: true}, "authentication_failed", false, agentproto.CodeAuthentication},
		{"retries exhausted", resultFrame{Subtype: "error_max_structured_output_retries", IsError: true}, "", true, agentproto.CodeStructuredOutput},
		{"no structured output", resultFrame{Subtype: "success", Result: `{"a":1}`}, "", true, agentproto.CodeStructuredOutput},
		{"interrupted", resultFrame{Subtype: "error_during_execution", IsError: true}, "", false, agentproto.CodeExecution},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := newTurn(t.Context())
			tr.apiError = c.apiError
			_, err := tr.outcome(&c.r, c.schema, "a")
			if got := agentproto.CodeOf(err); got != c.code {
				t.Errorf("%s (%v), want %s", got, err, c.code)
			}
			if want := c.name == "model not found"; rejection.TryNext(err) != want {
				t.Errorf("TryNext = %v, want %v", !want, want)
			}
		})
	}
	worked := newTurn(t.Context())
	worked.apiError = "model_not_found"
	worked.markWork()
	_, err := worked.outcome(&resultFrame{Subtype: "success", IsError: true, APIErrorStatus: &status, APIErrorType: "not_found_error"}, false, "a")
	if agentproto.CodeOf(err) != agentproto.CodeModelUnavailable || rejection.TryNext(err) {
		t.Errorf("a model refusal after work must be final: %v", err)
	}
	tr := newTurn(t.Context())
	res, err := tr.outcome(&resultFrame{Subtype: "success", StructuredOutput: json.RawMessage(`{"a":1}`)}, true, "a")
	if err != nil || string(res.Value) != `{"a":1}` {
		t.Errorf("structured: %s, %v", res.Value, err)
	}
	tr.cancel()
	if _, err := tr.outcome(&resultFrame{Subtype: "error_during_execution", IsError: true}, false, "a"); agentproto.CodeOf(err) != agentproto.CodeCancelled {
		t.Errorf("cancelled turn: %v", err)
	}
}

func TestFactoryRejectsUnknownEffort(t *testing.T) {
	f := NewFactory(Options{})
	_, err := f(adapter.Spec{Name: "a", Effort: "extreme"}, func(adapter.Event) {}, &adaptertest.Hooks{})
	if agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), "xhigh") {
		t.Errorf("effort: %v", err)
	}
	// Tool names are checked against every harness by the agent host before
	// any adapter is made; the factory only ignores names Claude Code lacks.
	if _, err = f(adapter.Spec{Name: "a", Tools: tools.Selection{DisallowedTools: []string{"view_image", "shell"}}}, func(adapter.Event) {}, &adaptertest.Hooks{}); err != nil {
		t.Errorf("tools: %v", err)
	}
}

func TestObserverEventsFromFrames(t *testing.T) {
	var got []adapter.Event
	o := newObserver(func(e adapter.Event) { got = append(got, e) }, "amazon-bedrock")
	lines := []string{
		`{"type":"system","subtype":"init","session_id":"S"}`,
		`{"type":"stream_event","api_message_id":"m1","ttft_ms":5,"event":{"type":"message_start","message":{"id":"m1","model":"x","usage":{"input_tokens":7}}}}`,
		`{"type":"stream_event","api_message_id":"m1","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}}`,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}`,
		`{"type":"stream_event","api_message_id":"m1","event":{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":3}}}`,
		`{"type":"stream_event","api_message_id":"m1","event":{"type":"message_stop"}}`,
		`{"type":"system","subtype":"task_started","task_id":"k1","tool_use_id":"t1","task_type":"local_bash","is_backgrounded":true}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"out"}]},"tool_use_result":{"stdout":"out"}}`,
		`{"type":"system","subtype":"status","status":"compacting"}`,
		`{"type":"system","subtype":"compact_boundary","compact_metadata":{"trigger":"auto"}}`,
		`{"type":"system","subtype":"task_notification","task_id":"k1","status":"completed"}`,
	}
	for _, l := range lines {
		f := &frame{}
		if err := json.Unmarshal([]byte(l), f); err != nil {
			t.Fatal(err)
		}
		f.raw = []byte(l)
		o.observe(f)
	}
	var types []string
	for _, e := range got {
		types = append(types, e.Type())
	}
	want := []string{"model.started", "message.delta", "tool.started", "model.completed", "background.started", "tool.completed",
		"compaction.started", "compaction.completed", "background.completed"}
	if !reflect.DeepEqual(types, want) {
		t.Fatalf("events %q\nwant %q", types, want)
	}
	mc := got[3].Details.(*eventapi.ModelCompleted).Usage
	if mc.InputTokens != 7 || mc.OutputTokens != 3 || got[3].IDs.NativeSessionID != "S" {
		t.Errorf("model.completed %+v", got[3])
	}
	if tc := got[5].Details.(*eventapi.ToolCompleted); tc.ToolName != "Bash" || string(tc.Output) != `{"stdout":"out"}` || got[5].IDs.ToolCallID != "t1" {
		t.Errorf("tool.completed %+v", tc)
	}
	if bg := got[4].Details.(*eventapi.BackgroundStarted); bg.TaskType != "local_bash" || bg.IsBackgrounded == nil || !*bg.IsBackgrounded ||
		got[4].IDs.TaskID != "k1" || got[4].IDs.ToolCallID != "t1" {
		t.Errorf("background.started %+v %+v", got[4].IDs, bg)
	}
	if cc := got[7].Details.(*eventapi.CompactionCompleted); string(cc.Metadata) != `{"trigger":"auto"}` {
		t.Errorf("compaction.completed %+v", cc)
	}
	if len(o.liveTasks()) != 0 {
		t.Errorf("live tasks after completion: %v", o.liveTasks())
	}
	o.turnUsage(&resultFrame{TotalCostUSD: 0.5, Usage: usage{InputTokens: 1}}, "")
	o.turnUsage(&resultFrame{TotalCostUSD: 0.75}, "u")
	u := got[len(got)-1].Details.(*eventapi.Usage)
	if *u.CostUSD != 0.25 || u.CostProvenance != eventapi.CostReported {
		t.Errorf("per-turn cost %v (%s), want the change of the cumulative total, reported", *u.CostUSD, u.CostProvenance)
	}
	if u.Provider != "amazon-bedrock" || u.Model != "x" {
		t.Errorf("usage %+v: want the backend and the latest message's model", u)
	}
}

func TestEnvAuthenticates(t *testing.T) {
	for _, c := range []struct {
		env     []string
		backend map[string]string
		want    bool
	}{
		{[]string{"ANTHROPIC_API_KEY=k"}, nil, true},
		{[]string{"CLAUDE_CODE_OAUTH_TOKEN=t"}, nil, true},
		{[]string{"ANTHROPIC_API_KEY="}, nil, false},
		{[]string{"PATH=/bin"}, map[string]string{"CLAUDE_CODE_USE_BEDROCK": "1"}, true},
		{[]string{"PATH=/bin"}, nil, false},
	} {
		if got := envAuthenticates(c.env, c.backend); got != c.want {
			t.Errorf("%v %v: %v", c.env, c.backend, got)
		}
	}
}

// total_cost_usd is cumulative per process: a total below the last one
// counted afresh, and the turn cost the new total, never less than nothing.
func TestTurnCostFollowsTheCumulativeTotal(t *testing.T) {
	var costs []float64
	o := newObserver(func(e adapter.Event) {
		if u, ok := e.Details.(*eventapi.Usage); ok {
			costs = append(costs, *u.CostUSD)
		}
	}, "")
	for _, total := range []float64{0.5, 2, 1.25, -1} {
		o.turnUsage(&resultFrame{TotalCostUSD: total}, "u")
	}
	if want := []float64{0.5, 1.5, 1.25, 0.0}; !reflect.DeepEqual(costs, want) {
		t.Errorf("costs %v, want %v", costs, want)
	}
}

// A system frame with a field of an unexpected type still reports what
// it can: the task ends, with the fields that did decode.
func TestSystemFrameWithAnOddFieldStillReports(t *testing.T) {
	var got []adapter.Event
	o := newObserver(func(e adapter.Event) { got = append(got, e) }, "")
	for _, l := range []string{
		`{"type":"system","subtype":"task_started","task_id":"k1","task_type":"local_bash"}`,
		`{"type":"system","subtype":"task_notification","task_id":"k1","status":"completed","summary":{"text":"done"}}`,
	} {
		f := &frame{}
		if err := json.Unmarshal([]byte(l), f); err != nil {
			t.Fatal(err)
		}
		f.raw = []byte(l)
		o.observe(f)
	}
	if len(got) != 2 || len(o.liveTasks()) != 0 {
		t.Fatalf("events %d, live tasks %v; want the task started and ended", len(got), o.liveTasks())
	}
	if d := got[1].Details.(*eventapi.BackgroundCompleted); d.Status != "completed" {
		t.Errorf("background.completed %+v", d)
	}
}
