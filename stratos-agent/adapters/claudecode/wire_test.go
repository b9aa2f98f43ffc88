package claudecode

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// sameJSON fails t unless v encodes to the JSON value want (key order aside).
func sameJSON(t *testing.T, name string, v any, want string) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var got, exp any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &exp); err != nil {
		t.Fatalf("%s: the expected JSON: %v", name, err)
	}
	if !reflect.DeepEqual(got, exp) {
		t.Errorf("%s\n got %s\nwant %s", name, b, want)
	}
}

// The lines the host writes to the CLI carry the keys the CLI reads, which
// it otherwise ignores silently when one is misspelt.
func TestTheHostsLinesCarryTheKeysTheCLIReads(t *testing.T) {
	sameJSON(t, "prompt", userMessage(&turn{uuid: "u-1"}, "hi"),
		`{"type":"user","uuid":"u-1","session_id":"","parent_tool_use_id":null,"message":{"role":"user","content":"hi"}}`)
	matcher := func(id string) string {
		return `[{"matcher":".*","hookCallbackIds":["` + id + `"],"timeout":3600,"onFailure":"block"}]`
	}
	sameJSON(t, "initialize", controlRequestFrame{Type: "control_request", RequestID: "r1", Request: initializeRequest{
		Subtype: "initialize", Hooks: hookRegistration(), SystemPrompt: []string{"be brief"}, JSONSchema: json.RawMessage(`{"type":"object"}`)}},
		`{"type":"control_request","request_id":"r1","request":{"subtype":"initialize","systemPrompt":["be brief"],"jsonSchema":{"type":"object"},"hooks":{`+
			`"PreToolUse":`+matcher(callbackPre)+`,"PostToolUse":`+matcher(callbackPost)+`,"PostToolUseFailure":`+matcher(callbackPostFailure)+`}}}`)
	sameJSON(t, "interrupt", controlRequestFrame{Type: "control_request", RequestID: "r2", Request: interrupt()},
		`{"type":"control_request","request_id":"r2","request":{"subtype":"interrupt"}}`)
	sameJSON(t, "stop_task", stopTaskRequest{Subtype: "stop_task", TaskID: "t1"}, `{"subtype":"stop_task","task_id":"t1"}`)
	sameJSON(t, "success", controlResponseFrame{Type: "control_response", Response: responseBody{Subtype: "success", RequestID: "c1", Response: struct{}{}}},
		`{"type":"control_response","response":{"subtype":"success","request_id":"c1","response":{}}}`)
	sameJSON(t, "error", controlResponseFrame{Type: "control_response", Response: responseBody{Subtype: "error", RequestID: "c2", Error: "no"}},
		`{"type":"control_response","response":{"subtype":"error","request_id":"c2","error":"no"}}`)
	sameJSON(t, "can_use_tool", permissionAllow{Behavior: "allow", UpdatedInput: rawOrEmpty(nil)}, `{"behavior":"allow","updatedInput":{}}`)
	sameJSON(t, "elicitation", elicitationDecline{Action: "decline"}, `{"action":"decline"}`)
}

// scriptedHooks answers every hook with its fields.
type scriptedHooks struct {
	before agentproto.BeforeToolCallResult
	after  agentproto.AfterToolCallResult
	err    error
}

func (h scriptedHooks) BeforeToolCall(context.Context, adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
	return h.before, h.err
}

func (h scriptedHooks) AfterToolCall(context.Context, adapter.ToolCall, json.RawMessage, *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
	return h.after, h.err
}

// Each answer of the author's hooks reaches the CLI as the hook answer it
// reads: allow, deny with the reason, modified input, a replaced output,
// added context, and a stopped turn when a hook threw.
func TestHookAnswersAreTheCLIsHookOutputs(t *testing.T) {
	ctx := context.Background()
	bash := hookInput{ToolName: "Bash", ToolUseID: "t1", ToolInput: json.RawMessage(`{"command":"ls"}`), ToolResponse: json.RawMessage(`{"stdout":"a","stderr":""}`)}
	threw := errors.New("boom")
	cases := []struct {
		name string
		call func(context.Context, adapter.Hooks, hookInput) (hookOutput, error)
		h    scriptedHooks
		want string
	}{
		{"allow", preToolUse, scriptedHooks{before: agentproto.BeforeToolCallResult{Action: agentproto.ActionAllow}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"deny", preToolUse, scriptedHooks{before: agentproto.BeforeToolCallResult{Action: agentproto.ActionDeny, Reason: "not here"}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not here"}}`},
		{"modify", preToolUse, scriptedHooks{before: agentproto.BeforeToolCallResult{Action: agentproto.ActionModify, Arguments: json.RawMessage(`{"command":"pwd"}`)}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"pwd"}}}`},
		{"before threw", preToolUse, scriptedHooks{err: threw},
			`{"continue":false,"stopReason":"a Stratos beforeToolCall hook failed","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"the beforeToolCall hook failed"}}`},
		{"keep", postToolUse, scriptedHooks{}, `{}`},
		{"block", postToolUse, scriptedHooks{after: agentproto.AfterToolCallResult{Action: agentproto.ActionBlock, Reason: "hidden"}},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"hidden","stderr":""}}}`},
		{"after threw", postToolUse, scriptedHooks{err: threw},
			`{"continue":false,"stopReason":"a Stratos afterToolCall hook failed","hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"the afterToolCall hook failed","stderr":""}}}`},
		{"failure block", postToolUseFailure, scriptedHooks{after: agentproto.AfterToolCallResult{Action: agentproto.ActionBlock, Reason: "why"}},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"why"}}`},
		{"failure threw", postToolUseFailure, scriptedHooks{err: threw}, `{"continue":false,"stopReason":"a Stratos afterToolCall hook failed"}`},
	}
	for _, c := range cases {
		out, err := c.call(ctx, c.h, bash)
		if !errors.Is(err, c.h.err) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.h.err)
		}
		sameJSON(t, c.name, out, c.want)
	}
}
