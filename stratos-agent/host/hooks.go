package host

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// sdkHooks implements adapter.Hooks by calling the author's hooks in the
// SDK. A hook the agent does not have is not called: no hook means allow.
type sdkHooks struct {
	peer        Peer
	agentID     string
	executionID string
	name        string
	has         map[string]bool
}

var (
	_ adapter.Hooks            = (*sdkHooks)(nil)
	_ adapter.ToolHookReporter = (*sdkHooks)(nil)
)

// HasToolHooks reports whether the agent has a tool hook (adapter.ToolHookReporter).
func (k *sdkHooks) HasToolHooks() bool {
	return k.has[agentproto.HookBeforeToolCall] || k.has[agentproto.HookAfterToolCall]
}

func (k *sdkHooks) BeforeToolCall(ctx context.Context, call adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
	allow := agentproto.BeforeToolCallResult{Action: agentproto.ActionAllow}
	if !k.has[agentproto.HookBeforeToolCall] {
		return allow, nil
	}
	var res *agentproto.BeforeToolCallResult
	params := agentproto.ToolCallParams{AgentID: k.agentID, ExecutionID: k.executionID, ToolCallID: call.ID, ToolName: call.Name, Input: call.Input}
	if err := k.peer.Call(ctx, agentproto.MethodHookBeforeToolCall, params, &res); err != nil {
		return allow, k.hookError(agentproto.HookBeforeToolCall, err)
	}
	if res == nil {
		return allow, nil
	}
	switch res.Action {
	case agentproto.ActionAllow:
	case agentproto.ActionDeny:
	case agentproto.ActionModify:
		var args map[string]any
		if json.Unmarshal(res.Arguments, &args) != nil || args == nil {
			return allow, agentproto.Errorf(agentproto.CodeHookFailed, "beforeToolCall hook of agent %q returned action \"modify\" without an arguments object", k.name)
		}
	default:
		return allow, agentproto.Errorf(agentproto.CodeHookFailed, "beforeToolCall hook of agent %q returned unknown action %q (allow, deny or modify)", k.name, res.Action)
	}
	return *res, nil
}

func (k *sdkHooks) AfterToolCall(ctx context.Context, call adapter.ToolCall, output json.RawMessage, toolErr *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
	var none agentproto.AfterToolCallResult
	if !k.has[agentproto.HookAfterToolCall] {
		return none, nil
	}
	var res *agentproto.AfterToolCallResult
	params := agentproto.AfterToolCallParams{AgentID: k.agentID, ExecutionID: k.executionID, ToolCallID: call.ID, ToolName: call.Name,
		Input: call.Input, Output: output, Error: toolErr}
	if err := k.peer.Call(ctx, agentproto.MethodHookAfterToolCall, params, &res); err != nil {
		return none, k.hookError(agentproto.HookAfterToolCall, err)
	}
	if res == nil {
		return none, nil
	}
	if res.Action != agentproto.ActionBlock {
		return none, agentproto.Errorf(agentproto.CodeHookFailed, "afterToolCall hook of agent %q returned unknown action %q (block)", k.name, res.Action)
	}
	return *res, nil
}

func (k *sdkHooks) onStart(ctx context.Context) error {
	if !k.has[agentproto.HookOnStart] {
		return nil
	}
	params := agentproto.LifecycleParams{AgentID: k.agentID, ExecutionID: k.executionID}
	if err := k.peer.Call(ctx, agentproto.MethodHookOnStart, params, nil); err != nil {
		return k.hookError(agentproto.HookOnStart, err)
	}
	return nil
}

// hookError turns a failed hook call into the invocation's error. A
// cancelled call stays a cancellation.
func (k *sdkHooks) hookError(hook string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return agentproto.Errorf(agentproto.CodeCancelled, "agent %q was cancelled while its %s hook ran", k.name, hook)
	}
	msg := err.Error()
	var re *jsonrpc.RemoteError
	if errors.As(err, &re) {
		msg = re.Message
	}
	return agentproto.Errorf(agentproto.CodeHookFailed, "%s hook of agent %q failed: %s", hook, k.name, msg).
		WithDetails(map[string]any{"hook": hook}).Wrap(err)
}
