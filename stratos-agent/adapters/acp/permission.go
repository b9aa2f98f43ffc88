package acp

import (
	"context"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// permission answers session/request_permission: the author's
// beforeToolCall decides (allow, or deny); without tool hooks every
// request is allowed once. A hook that throws fails the execute and the call does
// not run. ACP has no way to change a call's input, so a modification
// fails the execute rather than run the unmodified call.
func (s *session) permission(_ context.Context, req requestPermissionRequest) requestPermissionResponse {
	t := s.running()
	if t == nil {
		return choose(req.Options, optionRejectOnce)
	}
	if !adapter.HasToolHooks(s.hooks) {
		return choose(req.Options, optionAllowOnce)
	}
	c := s.toolStarted(t, req.ToolCall)
	call := adapter.ToolCall{ID: req.ToolCall.ToolCallID, Name: c.name, Input: inputOf(req.ToolCall)}
	res, err := s.hooks.BeforeToolCall(t.ctx, call)
	switch {
	case err != nil:
		t.Fail(err)
	case res.Action == agentproto.ActionModify:
		t.Fail(agentproto.Errorf(agentproto.CodeConfiguration,
			"agent %q: harness %s cannot modify a tool call's arguments (beforeToolCall returned modify): ACP lets a client only allow or reject a call",
			s.spec.Name, s.agent.Harness))
	case res.Action == agentproto.ActionDeny:
		t.mu.Lock()
		c.denied = true
		t.mu.Unlock()
		s.emit(eventapi.IDs{ToolCallID: call.ID}, &eventapi.ToolCompleted{ToolName: c.name, IsError: true, Status: "denied", Reason: res.Reason})
		return choose(req.Options, optionRejectOnce)
	default:
		return choose(req.Options, optionAllowOnce)
	}
	return choose(req.Options, optionRejectOnce)
}

// choose selects the first option of kind (allow_once, else any allow;
// reject_once, else any reject), or cancels the request when the agent
// offered none.
func choose(options []permissionOption, kind string) requestPermissionResponse {
	prefix := kind[:len(kind)-len("_once")]
	for _, want := range []func(string) bool{
		func(k string) bool { return k == kind },
		func(k string) bool { return len(k) > len(prefix) && k[:len(prefix)] == prefix },
	} {
		for _, o := range options {
			if want(o.Kind) {
				return requestPermissionResponse{Outcome: permissionOutcome{Outcome: "selected", OptionID: o.OptionID}}
			}
		}
	}
	return requestPermissionResponse{Outcome: permissionOutcome{Outcome: "cancelled"}}
}
