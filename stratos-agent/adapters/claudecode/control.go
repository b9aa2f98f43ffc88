package claudecode

import (
	"context"
	"encoding/json"
	"time"
)

// controlRequest is the request of a CLI → host control_request.
type controlRequest struct {
	Subtype    string          `json:"subtype"`
	CallbackID string          `json:"callback_id"`
	Input      json.RawMessage `json:"input"`
	ToolName   string          `json:"tool_name"`
}

// inflight is one CLI request being answered.
type inflight struct {
	cancel         context.CancelFunc
	cancelledByCLI bool
}

// onControl answers a CLI → host control request from a goroutine of its
// own (author hooks may take long; the CLI keeps streaming meanwhile).
// Every request gets exactly one answer, unless the CLI withdrew it with
// control_cancel_request, which must not be answered.
func (s *session) onControl(p *process, f *frame) {
	var req controlRequest
	if err := json.Unmarshal(f.Request, &req); err != nil {
		_ = p.respondError(f.RequestID, "malformed request: "+err.Error())
		return
	}
	s.mu.Lock()
	t := s.turn
	base := s.bg
	if t != nil {
		base = t.ctx
	}
	ctx, cancel := context.WithCancel(base)
	entry := &inflight{cancel: cancel}
	s.inflight[f.RequestID] = entry
	s.mu.Unlock()
	go func() {
		defer cancel()
		payload, errText := s.answer(ctx, p, t, req)
		s.mu.Lock()
		delete(s.inflight, f.RequestID)
		withdrawn := entry.cancelledByCLI
		s.mu.Unlock()
		if withdrawn {
			return
		}
		if errText != "" {
			_ = p.respondError(f.RequestID, errText)
			return
		}
		_ = p.respond(f.RequestID, payload)
	}()
}

// onCancelRequest handles control_cancel_request: stop answering.
func (s *session) onCancelRequest(id string) {
	s.mu.Lock()
	e := s.inflight[id]
	if e != nil {
		e.cancelledByCLI = true
	}
	s.mu.Unlock()
	if e != nil {
		e.cancel()
	}
}

// answer returns the success payload of a request, or an error text.
func (s *session) answer(ctx context.Context, p *process, t *turn, req controlRequest) (any, string) {
	switch req.Subtype {
	case "hook_callback":
		return s.hookCallback(ctx, p, t, req)
	case "can_use_tool":
		// Tools are approved by default; the author's beforeToolCall already
		// ran in PreToolUse. Allow must carry the input (docs/design/claude-code-cli.md).
		if t != nil {
			t.markWork()
		}
		return permissionAllow{Behavior: "allow", UpdatedInput: rawOrEmpty(req.Input)}, ""
	case "elicitation":
		return elicitationDecline{Action: "decline"}, ""
	}
	return nil, "Stratos does not handle control request " + req.Subtype
}

func (s *session) hookCallback(ctx context.Context, p *process, t *turn, req controlRequest) (any, string) {
	var in hookInput
	if err := json.Unmarshal(req.Input, &in); err != nil {
		return nil, "malformed hook input: " + err.Error()
	}
	if t != nil && in.ToolName != structuredOutputTool {
		t.markWork()
	}
	var out hookOutput
	var err error
	switch req.CallbackID {
	case callbackPre:
		out, err = preToolUse(ctx, s.hooks, in)
		if err == nil {
			p.tools.started(in.ToolUseID, in.ToolName)
		}
	case callbackPost:
		out, err = postToolUse(ctx, s.hooks, in)
	case callbackPostFailure:
		out, err = postToolUseFailure(ctx, s.hooks, in)
	default:
		return nil, "unknown hook callback " + req.CallbackID
	}
	if err != nil {
		s.hookFailed(p, t, in, err)
	}
	return out, ""
}

// hookFailed fails the invocation the hook belongs to and stops its turn.
// A hook of a turn nobody asked for (a background wake-up) cannot fail an
// invocation: the tool was refused and the failure is logged.
func (s *session) hookFailed(p *process, t *turn, in hookInput, err error) {
	if t == nil {
		s.log.Warn("a tool hook failed during a background turn; the tool call was refused", "tool", in.ToolName, "error", err)
		return
	}
	t.fail(err)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = p.request(ctx, interrupt())
	}()
}

func rawOrEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}
