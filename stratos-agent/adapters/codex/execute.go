package codex

import (
	"context"
	"errors"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// cancelWait bounds how long a cancelled execute waits for Codex to end
// the interrupted turn (3–17 ms measured).
const cancelWait = 15 * time.Second

// Execute sends one prompt as one turn and waits for its end. Turns are
// strictly sequential: a second turn/start on a busy thread would steer
// the running turn instead of starting a new one, so a
// concurrent Execute is refused before it reaches Codex. Before the
// conversation is pinned, a model-not-found rejection that came before any
// output or tool work moves to the next candidate model on a new thread.
func (s *session) Execute(ctx context.Context, prompt string) (adapter.Result, error) {
	if err := s.reserve(); err != nil {
		return adapter.Result{}, err
	}
	defer s.release()
	for {
		c, tid, err := s.ensureThread(ctx)
		if err != nil {
			return adapter.Result{}, err
		}
		res, t, err := s.runTurn(ctx, c, tid, prompt)
		if err == nil {
			s.pin()
			return res, nil
		}
		advanced, err := s.advance(t, err)
		if !advanced {
			s.pin()
			return adapter.Result{}, err
		}
	}
}

func (s *session) reserve() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy {
		return agentproto.Errorf(agentproto.CodeConcurrentUse, "agent %q is already executing a prompt on codex", s.spec.Name)
	}
	s.busy = true
	return nil
}

func (s *session) release() {
	s.mu.Lock()
	s.busy = false
	s.mu.Unlock()
}

func (s *session) pin() {
	s.mu.Lock()
	s.pinned = true
	s.mu.Unlock()
}

// runTurn starts the turn and waits for turn/completed, for the process
// to die, or for cancellation.
func (s *session) runTurn(ctx context.Context, c *conn, tid, prompt string) (adapter.Result, *turn, error) {
	t := newTurn(ctx)
	s.mu.Lock()
	s.turn = t
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.turn == t {
			s.turn = nil
		}
		s.mu.Unlock()
	}()
	params := map[string]any{"threadId": tid, "input": inputText(prompt)}
	schema := len(s.spec.OutputSchema) > 0
	if schema {
		params["outputSchema"] = s.spec.OutputSchema
	}
	var started struct {
		Turn struct {
			ID string `json:"id"`
		} `json:"turn"`
	}
	// turn/start answers at once (the turn runs on); it is not cut short by
	// a cancellation, which would leave a turn running whose id Stratos
	// never learnt and so could not interrupt.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), controlTimeout)
	err := c.call(sctx, "turn/start", params, &started)
	cancel()
	if err != nil {
		return adapter.Result{}, t, s.turnStartError(c, err)
	}
	t.setID(started.Turn.ID)
	select {
	case end := <-t.done:
		res, err := t.outcome(end, schema, s.spec.Name)
		return res, t, err
	case <-c.exited():
		return adapter.Result{}, t, s.exited(c, t)
	case <-ctx.Done():
	case <-t.cancelledCh:
	}
	s.interrupt(c, tid, t)
	timer := time.NewTimer(cancelWait)
	defer timer.Stop()
	select {
	case <-t.done:
	case <-c.exited():
	case <-timer.C:
		s.log.Warn("codex did not end the interrupted turn in time", "wait", cancelWait)
	}
	t.mu.Lock()
	failure := t.failure
	t.mu.Unlock()
	if failure != nil {
		return adapter.Result{}, t, failure
	}
	return adapter.Result{}, t, cancelledError(s.spec.Name)
}

func (s *session) turnStartError(c *conn, err error) error {
	if errors.Is(err, errExited) {
		err = c.p.ExitError()
	}
	return agentproto.Errorf(agentproto.CodeExecution, "agent %q: codex refused the prompt: %v", s.spec.Name, err).
		WithDetails(map[string]any{"harness": Harness})
}

func (s *session) exited(c *conn, t *turn) error {
	t.mu.Lock()
	failure, cancelled := t.failure, t.cancelled
	t.mu.Unlock()
	switch {
	case failure != nil:
		return failure
	case cancelled:
		return cancelledError(s.spec.Name)
	}
	return agentproto.Errorf(agentproto.CodeExecution, "agent %q: harness codex: %v", s.spec.Name, c.p.ExitError()).
		WithDetails(map[string]any{"harness": Harness})
}

// advance moves to the next candidate model when the selection rule
// allows it: a model-not-found of a conversation not yet pinned, before
// any output or tool work. The next model gets a new thread on the same
// app-server, so the rejected prompt is not in its history.
func (s *session) advance(t *turn, cause error) (bool, error) {
	s.mu.Lock()
	ok := !s.pinned && agentproto.CodeOf(cause) == agentproto.CodeModelUnavailable && t != nil && !t.hadWork()
	rejected := s.candidates[s.cand]
	last := s.cand+1 >= len(s.candidates)
	s.mu.Unlock()
	if !ok {
		return false, markSelectable(cause, false)
	}
	if last {
		return false, agentproto.Errorf(agentproto.CodeModelUnavailable, "agent %q: no model of %v is available through codex (last: %v)",
			s.spec.Name, s.spec.Models, cause).WithDetails(map[string]any{"harness": Harness, "models": s.spec.Models, "selectable": true}).Wrap(cause)
	}
	s.mu.Lock()
	s.cand++
	next := s.candidates[s.cand]
	s.threadID = ""
	s.mu.Unlock()
	s.emit(adapter.Event{Type: "model.unavailable", Time: time.Now(), Details: map[string]any{
		"model": rejected.Model, "nativeModel": rejected.NativeID, "next": next.Model, "error": cause.Error()}})
	return true, nil
}

// markSelectable records on a model_unavailable error whether the agent
// host may still try another harness (details.selectable).
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
