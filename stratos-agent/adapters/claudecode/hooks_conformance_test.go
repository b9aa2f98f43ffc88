package claudecode

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// bashTurns scripts a Bash call for marker followed by a final text that
// echoes the tool result (so the test reads what the model saw).
func bashTurns(marker, command string) string {
	return `{"match":{"marker":"` + marker + `"},"reply":[{"toolUse":{"name":"Bash","input":{"command":"` + command + `","description":"run"}}}]},
	  {"match":{"marker":"` + marker + `"},"reply":[{"text":"FINAL"}]}`
}

func TestHooksDenyModifyBlockReachTheModel(t *testing.T) {
	b := newBed(t, `{"turns":[`+bashTurns("[deny]", "touch denied.txt")+`,`+bashTurns("[modify]", "echo original")+`,`+
		bashTurns("[block]", "echo secret-output")+`]}`)
	hooks := &testHooks{
		before: func(c adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
			var in map[string]any
			_ = json.Unmarshal(c.Input, &in)
			switch in["command"] {
			case "touch denied.txt":
				return agentproto.BeforeToolCallResult{Action: agentproto.ActionDeny, Reason: "not allowed by policy"}, nil
			case "echo original":
				return agentproto.BeforeToolCallResult{Action: agentproto.ActionModify, Arguments: json.RawMessage(`{"command":"echo modified","description":"run"}`)}, nil
			}
			return agentproto.BeforeToolCallResult{Action: agentproto.ActionAllow}, nil
		},
		after: func(c adapter.ToolCall, out json.RawMessage, _ *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
			if strings.Contains(string(out), "secret-output") {
				return agentproto.AfterToolCallResult{Action: agentproto.ActionBlock, Reason: "output withheld by policy"}, nil
			}
			return agentproto.AfterToolCallResult{}, nil
		},
	}
	a := b.adapter(adapter.Spec{}, hooks)
	for _, p := range []string{"[deny] go", "[modify] go", "[block] go"} {
		mustExecute(t, a, p)
	}
	results := map[string]string{}
	for _, r := range b.modelRequests() {
		for _, tr := range r.ToolResults {
			results[r.Prompt] = tr.Content
			if r.Prompt == "[deny] go" && !tr.IsError {
				t.Errorf("denied call's result is not an error")
			}
		}
	}
	if got := results["[deny] go"]; !strings.Contains(got, "not allowed by policy") {
		t.Errorf("deny: tool_result %q lacks the reason", got)
	}
	if _, err := os.Stat(filepath.Join(b.work, "denied.txt")); err == nil {
		t.Errorf("the denied command ran")
	}
	if got := results["[modify] go"]; !strings.HasPrefix(got, "modified") {
		t.Errorf("modify: tool_result %q, want the modified command's output", got)
	}
	if got := results["[block] go"]; !strings.Contains(got, "output withheld by policy") || strings.Contains(got, "secret-output") {
		t.Errorf("block: tool_result %q, want the reason instead of the output", got)
	}
	if n := len(hooks.seen()); n != 5 { // 3 before, 2 after (the denied call never ran)
		t.Errorf("hook calls %v", hooks.seen())
	}
}

func TestHookExceptionFailsTheInvocationAndTheConversationContinues(t *testing.T) {
	b := newBed(t, `{"turns":[`+bashTurns("[boom]", "touch ran.txt")+`,
	  {"match":{"marker":"[after]"},"reply":[{"text":"still here"}]}]}`)
	hookErr := agentproto.Errorf(agentproto.CodeHookFailed, "beforeToolCall hook of agent \"tester\" failed: kaboom")
	hooks := &testHooks{before: func(adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
		return agentproto.BeforeToolCallResult{}, hookErr
	}}
	a := b.adapter(adapter.Spec{}, hooks)
	_, err := a.Execute(ctx(t), "[boom] go")
	if !errors.Is(err, hookErr) {
		t.Fatalf("execute error %v, want the hook's error", err)
	}
	if _, err := os.Stat(filepath.Join(b.work, "ran.txt")); err == nil {
		t.Errorf("the tool ran although its hook failed")
	}
	hooks.before = nil
	if got := mustExecute(t, a, "[after] hi").Text; got != "still here" {
		t.Errorf("next execute %q", got)
	}
}

func TestStructuredOutputSuccessSkipsHooksAndFailureIsAnError(t *testing.T) {
	b := newBed(t, `{"turns":[
	  {"match":{"marker":"[person]"},"reply":[{"structuredOutput":{"name":"Ada","age":36}}]},
	  {"match":{"marker":"[bad]"},"times":6,"reply":[{"structuredOutput":{"name":"Ada","age":"old"}}]},
	  {"match":{"marker":"[prose]"},"reply":[{"text":"just prose"}]},
	  {"match":{"marker":"[structured-output-enforce]"},"reply":[{"text":"still prose"}]}
	]}`)
	hooks := &testHooks{}
	schema := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name","age"],"additionalProperties":false}`)
	a := b.adapter(adapter.Spec{OutputSchema: schema}, hooks)
	res := mustExecute(t, a, "[person] give me one")
	var v map[string]any
	if err := json.Unmarshal(res.Value, &v); err != nil || v["name"] != "Ada" || v["age"] != 36.0 {
		t.Fatalf("value %s (%v)", res.Value, err)
	}
	if len(hooks.seen()) != 0 {
		t.Errorf("StructuredOutput reached author hooks: %v", hooks.seen())
	}
	if !slices.Contains(b.modelRequests()[0].Tools, "StructuredOutput") {
		t.Errorf("StructuredOutput not offered")
	}
	_, err := a.Execute(ctx(t), "[bad] give me one")
	wantCode(t, err, agentproto.CodeStructuredOutput)
	_, err = a.Execute(ctx(t), "[prose] give me one")
	wantCode(t, err, agentproto.CodeStructuredOutput)
}
