package codex

import (
	"context"
	"encoding/json"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// currentTurn is the running turn, or nil.
func (s *session) currentTurn() *turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turn
}

func (a hookArgs) call() adapter.ToolCall {
	in := a.ToolInput
	if len(in) == 0 {
		in = json.RawMessage("{}")
	}
	return adapter.ToolCall{ID: a.Call, Name: a.ToolName, Input: in}
}

// preToolUse asks beforeToolCall and answers in Codex's PreToolUse output
// contract: no opinion for allow (Codex 0.171 rejects a
// plain "allow"; approval policy and approved MCP servers let the call
// run), deny with the reason as feedback, or allow with updatedInput. A
// hook that threw denies the call and fails the invocation.
func (s *session) preToolUse(_ context.Context, a hookArgs) string {
	t := s.currentTurn()
	if t == nil {
		return ""
	}
	res, err := s.hooks.BeforeToolCall(t.ctx, a.call())
	if err != nil {
		t.fail(err)
		t.cancel()
		return preDecision("deny", "the Stratos beforeToolCall hook failed", nil)
	}
	switch res.Action {
	case agentproto.ActionDeny:
		reason := res.Reason
		if reason == "" {
			reason = "denied by a Stratos beforeToolCall hook"
		}
		return preDecision("deny", reason, nil)
	case agentproto.ActionModify:
		return preDecision("allow", "", res.Arguments)
	}
	return ""
}

func preDecision(decision, reason string, input json.RawMessage) string {
	out := map[string]any{"hookEventName": "PreToolUse", "permissionDecision": decision}
	if reason != "" {
		out["permissionDecisionReason"] = reason
	}
	if input != nil {
		out["updatedInput"] = input
	}
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": out})
	return string(b)
}

// postToolUse asks afterToolCall about a finished call: with its output,
// or with its error when the call failed (a command that exited non-zero,
// an MCP call that failed; Codex's hook input does not say, its
// item/completed does). "block" is Codex's native block: the model reads
// the reason instead of the output or the error. A hook that threw blocks
// the output and fails the invocation.
func (s *session) postToolUse(_ context.Context, a hookArgs) string {
	t := s.currentTurn()
	if t == nil {
		return ""
	}
	output, toolErr := a.ToolResponse, (*agentproto.ToolError)(nil)
	if out, ok := s.outcomes.take(a.Call, outcomeWait); ok && out.failed {
		output, toolErr = nil, &agentproto.ToolError{Message: out.message}
	}
	res, err := s.hooks.AfterToolCall(t.ctx, a.call(), output, toolErr)
	if err != nil {
		t.fail(err)
		t.cancel()
		return postBlock("the Stratos afterToolCall hook failed")
	}
	if res.Action != agentproto.ActionBlock {
		return ""
	}
	reason := res.Reason
	if reason == "" {
		reason = "withheld by a Stratos afterToolCall hook"
	}
	return postBlock(reason)
}

func postBlock(reason string) string {
	b, _ := json.Marshal(map[string]any{"decision": "block", "reason": reason})
	return string(b)
}
