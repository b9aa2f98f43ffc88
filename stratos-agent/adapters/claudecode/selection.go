package claudecode

import (
	"context"
	"errors"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// advance moves to the next candidate when the selection rule allows it.
// The rejected process must close first; if it cannot, both errors are
// reported and the selection stops.
func (s *session) advance(ctx context.Context, p *process, t *turn, cause error) (bool, error) {
	s.mu.Lock()
	ok := !s.pinned && agentproto.CodeOf(cause) == agentproto.CodeModelUnavailable && t != nil && !t.hadWork()
	rejected := s.candidates[s.cand]
	last := s.cand+1 >= len(s.candidates)
	s.mu.Unlock()
	if !ok {
		return false, markSelectable(cause, false)
	}
	if err := s.stopProcess(ctx, p); err != nil {
		return false, errors.Join(cause, agentproto.Errorf(agentproto.CodeExecution,
			"agent %q: closing the rejected claude process failed, so no other model is tried: %v", s.spec.Name, err))
	}
	if last {
		return false, agentproto.Errorf(agentproto.CodeModelUnavailable, "agent %q: no model of %v is available through claude-code (last: %v)",
			s.spec.Name, s.spec.Models, cause).WithDetails(map[string]any{"harness": Harness, "models": s.spec.Models, "selectable": true}).Wrap(cause)
	}
	s.mu.Lock()
	s.cand++
	next := s.candidates[s.cand]
	s.sessionID, s.launched = newUUID(), false
	s.mu.Unlock()
	s.emit(adapter.Event{Type: "model.unavailable", Time: time.Now(), Details: map[string]any{
		"model": rejected.Model, "nativeModel": rejected.NativeID, "next": next.Model, "error": cause.Error()}})
	return true, nil
}

func (t *turn) hadWork() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.work
}

// stopProcess shuts the current process down and forgets it.
func (s *session) stopProcess(ctx context.Context, p *process) error {
	s.mu.Lock()
	if s.proc == p {
		s.proc, s.obs = nil, nil
	}
	s.mu.Unlock()
	return p.shutdown(ctx)
}

// markSelectable records on a model_unavailable error whether the agent
// host may still try another harness (details.selectable): only when the
// rejection came before any output or tool work of a conversation not yet
// pinned. Other errors are returned unchanged.
func markSelectable(err error, selectable bool) error {
	var ae *agentproto.Error
	if !errors.As(err, &ae) || ae.Code != agentproto.CodeModelUnavailable {
		return err
	}
	d := map[string]any{}
	for k, v := range ae.Details {
		d[k] = v
	}
	d["selectable"] = selectable
	ae.Details = d
	return err
}
