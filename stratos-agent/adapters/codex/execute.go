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
// the running turn instead of starting a new one, so a concurrent Execute
// is refused before it reaches Codex. A model Codex reports as not found
// before any output or tool work is a rejection the host's selector may
// pass to the next candidate.
func (s *session) Execute(ctx context.Context, prompt string) (adapter.Result, error) {
	if err := s.reserve(); err != nil {
		return adapter.Result{}, err
	}
	defer s.release()
	c, tid, err := s.ensureThread(ctx)
	if err != nil {
		return adapter.Result{}, err
	}
	return s.runTurn(ctx, c, tid, prompt)
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

// runTurn starts the turn and waits for turn/completed, for the process
// to die, or for cancellation.
func (s *session) runTurn(ctx context.Context, c *conn, tid, prompt string) (adapter.Result, error) {
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
		return adapter.Result{}, s.turnStartError(c, err)
	}
	t.setID(started.Turn.ID)
	select {
	case end := <-t.done:
		return t.outcome(end, schema, s.spec.Name)
	case <-c.exited():
		return adapter.Result{}, s.exited(c, t)
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
		return adapter.Result{}, failure
	}
	return adapter.Result{}, cancelledError(s.spec.Name)
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
