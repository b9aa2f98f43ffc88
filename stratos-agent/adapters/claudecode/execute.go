package claudecode

import (
	"context"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// Execute sends one prompt and waits for its own result. A structured
// model-unavailable answer is a rejection; the host's selector decides
// whether another candidate gets the prompt.
func (s *session) Execute(ctx context.Context, prompt string) (adapter.Result, error) {
	p, obs, err := s.ensureProcess(ctx)
	if err != nil {
		return adapter.Result{}, err
	}
	res, _, err := s.runTurn(ctx, p, obs, prompt)
	return res, err
}

// runTurn sends the prompt and waits for its result, or for cancellation.
func (s *session) runTurn(ctx context.Context, p *process, obs *observer, prompt string) (adapter.Result, *turn, error) {
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
	if err := p.send(userMessage(t, prompt)); err != nil {
		return adapter.Result{}, t, s.exited(p, t)
	}
	schema := len(s.spec.OutputSchema) > 0
	select {
	case r := <-t.result:
		res, err := t.outcome(r, schema, s.spec.Name)
		return res, t, err
	case <-p.exited:
		return adapter.Result{}, t, s.exited(p, t)
	case <-ctx.Done():
	case <-t.cancelledCh:
	}
	s.cancelTurn(p, obs, t)
	timer := time.NewTimer(cancelWait)
	defer timer.Stop()
	select {
	case <-t.result:
	case <-p.exited:
	case <-timer.C:
		s.log.Warn("claude did not end the interrupted turn in time", "wait", cancelWait)
	}
	return adapter.Result{}, t, cancelledError(s.spec.Name)
}

func (s *session) exited(p *process, t *turn) error {
	<-p.exited
	t.mu.Lock()
	failure, cancelled := t.failure, t.cancelled
	t.mu.Unlock()
	if failure != nil {
		return failure
	}
	if cancelled {
		return cancelledError(s.spec.Name)
	}
	return agentproto.Errorf(agentproto.CodeExecution, "agent %q: harness claude-code: %v", s.spec.Name, p.exitError()).
		WithDetails(map[string]any{"harness": Harness})
}
