package claudecode

import (
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// Callback ids registered in initialize; the CLI echoes them in
// hook_callback requests.
const (
	callbackPre         = "stratos_pre_tool_use"
	callbackPost        = "stratos_post_tool_use"
	callbackPostFailure = "stratos_post_tool_use_failure"
	// structuredOutputTool is the CLI's native delivery tool for
	// --json-schema; it never reaches author hooks (docs/design/harness-selection.md).
	structuredOutputTool = "StructuredOutput"
	// hookTimeoutSeconds bounds one author hook as the CLI sees it. Author
	// hooks may be slow (they are async TypeScript), so the bound is
	// generous; on timeout the CLI blocks the tool (onFailure "block").
	hookTimeoutSeconds = 3600
)

// hookRegistration is the initialize request's hooks: every tool call goes
// through the author's hooks (the host answers "allow" itself when the
// agent has none). onFailure "block" makes a failed or timed-out callback
// block the tool instead of letting it run.
func hookRegistration() map[string][]hookMatcher {
	entry := func(id string) []hookMatcher {
		return []hookMatcher{{Matcher: ".*", HookCallbackIDs: []string{id}, Timeout: hookTimeoutSeconds, OnFailure: "block"}}
	}
	return map[string][]hookMatcher{
		"PreToolUse":         entry(callbackPre),
		"PostToolUse":        entry(callbackPost),
		"PostToolUseFailure": entry(callbackPostFailure),
	}
}

// hookInput is the input of a tool hook callback.
type hookInput struct {
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolUseID     string          `json:"tool_use_id"`
	ToolResponse  json.RawMessage `json:"tool_response"`
	Error         string          `json:"error"`
}

func (in hookInput) call() adapter.ToolCall {
	return adapter.ToolCall{ID: in.ToolUseID, Name: in.ToolName, Input: in.ToolInput}
}

// preToolUse asks beforeToolCall and returns the native answer: allow (which
// also skips the CLI's permission prompt: tools are approved by default),
// deny with the reason as feedback, or allow with updatedInput. A hook that
// threw denies the call, stops the turn and returns the error, which fails
// the invocation.
func preToolUse(ctx context.Context, hooks adapter.Hooks, in hookInput) (hookOutput, error) {
	allow := &hookSpecific{HookEventName: "PreToolUse", PermissionDecision: "allow"}
	if in.ToolName == structuredOutputTool {
		return hookOutput{Specific: allow}, nil
	}
	res, err := hooks.BeforeToolCall(ctx, in.call())
	if err != nil {
		return stopTurn("beforeToolCall", &hookSpecific{HookEventName: "PreToolUse", PermissionDecision: "deny",
			PermissionDecisionReason: "the beforeToolCall hook failed"}), err
	}
	switch res.Action {
	case agentproto.ActionDeny:
		return hookOutput{Specific: &hookSpecific{HookEventName: "PreToolUse", PermissionDecision: "deny",
			PermissionDecisionReason: res.Reason}}, nil
	case agentproto.ActionModify:
		allow.UpdatedInput = res.Arguments
	}
	return hookOutput{Specific: allow}, nil
}

// postToolUse asks afterToolCall about a completed call. "block" replaces
// the tool's output, in the tool's own output shape, by the reason: the
// CLI's native decision "block" alone leaves the original output visible to
// the model, and a replacement of the wrong shape is silently ignored
// (docs/design/claude-code-cli.md, "Hooks and permission requests").
func postToolUse(ctx context.Context, hooks adapter.Hooks, in hookInput) (hookOutput, error) {
	if in.ToolName == structuredOutputTool {
		return hookOutput{}, nil
	}
	res, err := hooks.AfterToolCall(ctx, in.call(), in.ToolResponse, nil)
	if err != nil {
		return stopTurn("afterToolCall", &hookSpecific{HookEventName: "PostToolUse",
			UpdatedToolOutput: replaceOutput(in.ToolResponse, "the afterToolCall hook failed")}), err
	}
	if res.Action != agentproto.ActionBlock {
		return hookOutput{}, nil
	}
	return hookOutput{Specific: &hookSpecific{HookEventName: "PostToolUse",
		UpdatedToolOutput: replaceOutput(in.ToolResponse, res.Reason)}}, nil
}

// postToolUseFailure passes a failed call to afterToolCall with its error.
// Claude Code lets this hook only add context, so "block" adds the reason;
// the error text itself stays visible (documented limit).
func postToolUseFailure(ctx context.Context, hooks adapter.Hooks, in hookInput) (hookOutput, error) {
	if in.ToolName == structuredOutputTool {
		return hookOutput{}, nil
	}
	res, err := hooks.AfterToolCall(ctx, in.call(), nil, &agentproto.ToolError{Message: in.Error})
	if err != nil {
		return stopTurn("afterToolCall", nil), err
	}
	if res.Action != agentproto.ActionBlock {
		return hookOutput{}, nil
	}
	return hookOutput{Specific: &hookSpecific{HookEventName: "PostToolUseFailure", AdditionalContext: res.Reason}}, nil
}

// outputFields are where tools put what the model reads, in the order the
// replacement prefers them (Bash stdout, Read file.content, MCP text, …).
var outputFields = []string{"stdout", "content", "text", "output", "result", "message", "results", "matches", "filenames"}

// replaceOutput returns a value of the same shape as output whose readable
// text is reason: the first output field (searched depth first) gets the
// reason, every other string is emptied except "type" discriminators and
// lists of content blocks collapse to one text block.
func replaceOutput(output json.RawMessage, reason string) any {
	var v any
	if len(output) == 0 || json.Unmarshal(output, &v) != nil {
		return reason
	}
	placed := false
	out := redact(v, reason, &placed)
	if !placed {
		return reason
	}
	return out
}

func redact(v any, reason string, placed *bool) any {
	switch x := v.(type) {
	case string:
		if *placed {
			return ""
		}
		*placed = true
		return reason
	case []any:
		if isContentBlocks(x) {
			if *placed {
				return []any{}
			}
			*placed = true
			return []any{map[string]any{"type": "text", "text": reason}}
		}
		out := make([]any, 0, len(x))
		if !*placed && len(x) > 0 {
			if _, ok := x[0].(string); ok {
				*placed = true
				return []any{reason}
			}
		}
		return out
	case map[string]any:
		return redactObject(x, reason, placed)
	}
	return v
}

func redactObject(x map[string]any, reason string, placed *bool) map[string]any {
	out := make(map[string]any, len(x))
	for _, k := range outputFields {
		if v, ok := x[k]; ok {
			out[k] = redact(v, reason, placed)
		}
	}
	keys := slices.Sorted(maps.Keys(x))
	for _, k := range keys {
		if _, done := out[k]; done {
			continue
		}
		switch v := x[k]; v.(type) {
		case string, []any, map[string]any:
			if k == "type" {
				out[k] = v
			} else {
				out[k] = redact(v, reason, placed)
			}
		default:
			out[k] = v
		}
	}
	return out
}

func isContentBlocks(list []any) bool {
	if len(list) == 0 {
		return false
	}
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m["type"].(string); !ok {
			return false
		}
	}
	return true
}
