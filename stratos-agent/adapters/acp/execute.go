package acp

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// Execute sends one prompt (session/prompt) and returns the reply. A
// cancel (or ctx's end) sends session/cancel and waits, bounded, for the
// agent to end the turn, so the next execute starts on a quiet session.
func (s *session) Execute(ctx context.Context, prompt string) (adapter.Result, error) {
	c, sid, err := s.current()
	if err != nil {
		return adapter.Result{}, err
	}
	t := newTurn(ctx)
	defer t.stop()
	s.mu.Lock()
	s.turn = t
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.turn = nil
		s.mu.Unlock()
	}()
	text := prompt
	if len(s.spec.OutputSchema) > 0 {
		text = withSchema(prompt, s.spec.OutputSchema)
	}
	s.emit(eventapi.IDs{}, &eventapi.ModelStarted{Model: s.model()})
	answered := make(chan promptResult, 1)
	go func() {
		var res promptResponse
		err := c.call(context.WithoutCancel(ctx), methodSessionPrompt, promptRequest{SessionID: sid, Prompt: []contentBlock{{Type: "text", Text: text}}}, &res)
		answered <- promptResult{res, err}
	}()
	var r promptResult
	select {
	case r = <-answered:
	case <-ctx.Done():
		r = s.stopTurn(c, sid, answered)
		t.cancel()
	case <-t.cancelled:
		r = s.stopTurn(c, sid, answered)
	}
	t.hooks.Wait()
	if t.ranTools() {
		s.noteBackground(c)
	}
	return s.outcome(t, r)
}

// noteBackground reports work the turn left running: ACP says nothing of
// it, but a tool the agent ran in the background (Gemini CLI's
// is_background shell) is a session of its own still running among the
// agent's descendants after the turn. More such sessions than after the
// last turn is background work started by this one. Only a turn that ran
// tools can have started any: the note reads the agent's process tree,
// which (when it read every process's stat) was most of the kit's CPU in a
// turn of text alone (scripts/bench-acp).
func (s *session) noteBackground(c *conn) {
	n := procgroup.NoteSessions(c.p.Pid()).Len()
	s.mu.Lock()
	started := n > s.background
	s.background = n
	s.mu.Unlock()
	if started {
		yes := true
		s.emit(eventapi.IDs{}, &eventapi.BackgroundStarted{TaskType: "shell", Description: "a tool left running after the turn", IsBackgrounded: &yes})
	}
}

type promptResult struct {
	res promptResponse
	err error
}

// stopTurn sends session/cancel and waits for the prompt's answer, which
// ACP requires the agent to send (stop reason "cancelled").
func (s *session) stopTurn(c *conn, sid string, answered <-chan promptResult) promptResult {
	if err := c.notify(methodSessionCancel, cancelNotification{SessionID: sid}); err != nil {
		s.log.Debug("acp: session/cancel", "error", err)
	}
	timer := time.NewTimer(cancelWait)
	defer timer.Stop()
	select {
	case r := <-answered:
		return r
	case <-timer.C:
		s.log.Warn("acp: the agent did not end the cancelled prompt in time", "wait", cancelWait)
		return promptResult{res: promptResponse{StopReason: stopCancelled}}
	}
}

// outcome is the execute's result: a hook's failure first, then a
// cancel, then the agent's own answer. Every turn that started ends with
// model.completed, failed or cancelled ones too, so nothing reading the
// run sees a turn that never ended.
func (s *session) outcome(t *turn, r promptResult) (adapter.Result, error) {
	if err := s.turnFailure(t, r); err != nil {
		status := eventapi.StatusFailed
		if agentproto.CodeOf(err) == agentproto.CodeCancelled {
			status = eventapi.StatusCancelled
		}
		s.turnEnded(t, r.res, status)
		return adapter.Result{}, err
	}
	s.turnEnded(t, r.res, "")
	if r.res.StopReason == stopRefusal {
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeExecution, "agent %q: harness %s refused the prompt", s.spec.Name, s.agent.Harness).
			WithDetails(map[string]any{"harness": s.agent.Harness, "stopReason": r.res.StopReason})
	}
	text := t.reply()
	if len(s.spec.OutputSchema) == 0 {
		return adapter.Result{Text: text}, nil
	}
	return valueOf(text, s.spec.Name, s.agent.Harness)
}

// turnFailure is why the turn did not complete, or nil.
func (s *session) turnFailure(t *turn, r promptResult) error {
	if err := t.failed(); err != nil {
		return err
	}
	if t.isCancelled() || r.res.StopReason == stopCancelled {
		return s.cancelledError()
	}
	if r.err != nil {
		return s.promptError(r.err, s.stderrTail(), t.hadWork())
	}
	return nil
}

func (s *session) promptError(err error, stderr string, hadWork bool) error {
	var re *jsonrpc.RemoteError
	if errors.As(err, &re) && s.agent.Refusal != nil {
		if r := s.agent.Refusal(s.spec, re, stderr, hadWork); r != nil {
			return r
		}
	}
	return agentproto.Errorf(agentproto.CodeExecution, "agent %q: harness %s: %v", s.spec.Name, s.agent.Harness, err).
		WithDetails(map[string]any{"harness": s.agent.Harness})
}

// turnEnded emits the turn's end (status "" when it completed) and its
// usage when the agent reports it, in the prompt answer or else in its
// updates: a failed or cancelled turn's tokens were spent too.
func (s *session) turnEnded(t *turn, res promptResponse, status string) {
	var tokens *eventapi.Tokens
	if s.agent.Usage != nil && len(res.Meta) > 0 {
		tokens = s.agent.Usage(res.Meta)
	}
	if tokens == nil {
		tokens = t.reportedUsage()
	}
	s.emit(eventapi.IDs{}, &eventapi.ModelCompleted{Model: s.model(), StopReason: res.StopReason, Usage: tokens, Status: status})
	if tokens != nil {
		s.emit(eventapi.IDs{}, &eventapi.Usage{Tokens: *tokens, Model: s.model(), Provider: s.spec.Provider})
	}
}

func (s *session) model() string {
	if len(s.spec.Models) > 0 {
		return s.spec.Models[0]
	}
	return ""
}

// handle answers the agent's requests and notifications. Stratos offers
// no file system or terminal, so only permission requests and session
// updates are expected.
func (s *session) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case methodSessionUpdate:
		var n sessionNotification
		if err := json.Unmarshal(params, &n); err != nil {
			return nil, err
		}
		s.onUpdate(n.Update)
		return nil, nil
	case methodRequestPermission:
		var req requestPermissionRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, err
		}
		return s.permission(ctx, req), nil
	}
	return nil, &jsonrpc.RemoteError{Code: -32601, Message: "method not found: " + method}
}

func (s *session) running() *turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turn
}

func (s *session) stderrTail() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil {
		return ""
	}
	return s.conn.p.StderrTail()
}
