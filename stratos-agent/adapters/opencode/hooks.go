package opencode

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// beforeTool hears of every call OpenCode is about to run: the turn
// notes it (a turn with a tool call may have several assistant messages,
// replay.go). Then it asks beforeToolCall, if the author has a tool hook
// and the tool is not OpenCode's own (structured output, unknown tool):
// deny makes the plugin throw (the call fails with the reason, which the
// model reads, and the turn goes on); modify replaces the arguments in
// place. A hook that threw fails the call and the invocation, and the turn
// is aborted.
func (s *session) beforeTool(_ context.Context, req beforeRequest) hookAnswer {
	t := s.currentTurn()
	if t == nil {
		return hookAnswer{Decision: "allow"}
	}
	t.announceTool()
	if hiddenTools[req.Tool] || !adapter.HasToolHooks(s.hooks) {
		return hookAnswer{Decision: "allow"}
	}
	res, err := s.hooks.BeforeToolCall(t.ctx, toolCall(req))
	if err != nil {
		t.fail(err)
		t.cancel()
		return hookAnswer{Decision: "fail", Reason: "the Stratos beforeToolCall hook failed"}
	}
	switch res.Action {
	case agentproto.ActionDeny:
		reason := res.Reason
		if reason == "" {
			reason = "denied by a Stratos beforeToolCall hook"
		}
		return hookAnswer{Decision: "deny", Reason: reason}
	case agentproto.ActionModify:
		return hookAnswer{Decision: "modify", Args: res.Arguments}
	}
	return hookAnswer{Decision: "allow"}
}

// afterTool asks afterToolCall about a finished call, with its output or,
// when it failed (a command that exited non-zero, an MCP result marked as
// an error), with its error. "block" replaces what the model reads by the
// reason (OpenCode's plugin mutates the result). A hook that threw fails
// the call and the invocation.
func (s *session) afterTool(_ context.Context, req afterRequest) hookAnswer {
	t := s.currentTurn()
	if t == nil {
		return hookAnswer{Decision: "keep"}
	}
	output, toolErr := req.result()
	res, err := s.hooks.AfterToolCall(t.ctx, toolCall(req.beforeRequest), output, toolErr)
	if err != nil {
		t.fail(err)
		t.cancel()
		return hookAnswer{Decision: "fail", Reason: "the Stratos afterToolCall hook failed"}
	}
	if res.Action != agentproto.ActionBlock {
		return hookAnswer{Decision: "keep"}
	}
	reason := res.Reason
	if reason == "" {
		reason = "withheld by a Stratos afterToolCall hook"
	}
	return hookAnswer{Decision: "replace", Output: reason}
}

func toolCall(req beforeRequest) adapter.ToolCall {
	in := req.Args
	if len(in) == 0 || string(in) == "null" {
		in = json.RawMessage("{}")
	}
	return adapter.ToolCall{ID: req.CallID, Name: req.Tool, Input: in}
}

// result is the call's output for afterToolCall, or its error. OpenCode's
// bash tool completes normally whatever the exit code, which only its
// metadata tells.
func (req afterRequest) result() (json.RawMessage, *agentproto.ToolError) {
	if req.MCP {
		if req.IsError {
			return nil, &agentproto.ToolError{Message: mcpText(req.Content)}
		}
		return req.Content, nil
	}
	var meta struct {
		Exit *int `json:"exit"`
	}
	_ = json.Unmarshal(req.Metadata, &meta)
	if meta.Exit != nil && *meta.Exit != 0 {
		return nil, &agentproto.ToolError{Message: strings.TrimSpace(fmt.Sprintf("%s\n(exit code %d)", strings.TrimSpace(req.Output), *meta.Exit))}
	}
	out, _ := json.Marshal(req.Output)
	return out, nil
}

func mcpText(content json.RawMessage) string {
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &parts) != nil {
		return string(content)
	}
	var texts []string
	for _, p := range parts {
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	if len(texts) == 0 {
		return "the MCP tool call failed"
	}
	return strings.Join(texts, "\n")
}
