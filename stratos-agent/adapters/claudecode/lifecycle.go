package claudecode

import (
	"context"
	"fmt"
	"os"
	"time"
)

// Cancel interrupts the running prompt and stops every live background
// task of the session; it returns at once.
func (s *session) Cancel() {
	s.mu.Lock()
	p, obs, t := s.proc, s.obs, s.turn
	s.mu.Unlock()
	if p == nil {
		return
	}
	if t != nil {
		s.cancelTurn(p, obs, t)
		return
	}
	go s.stopTasks(p, obs)
}

// cancelTurn marks t cancelled and, once per turn, sends interrupt and
// stop_task for each live background task (interrupt alone leaves
// background shells running: docs/design/claude-code-cli.md).
func (s *session) cancelTurn(p *process, obs *observer, t *turn) {
	t.mu.Lock()
	first := !t.cancelled
	t.mu.Unlock()
	t.cancel()
	if !first {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := p.request(ctx, map[string]any{"subtype": "interrupt"}); err != nil {
			s.log.Debug("interrupt", "error", err)
		}
		s.stopTasks(p, obs)
	}()
}

func (s *session) stopTasks(p *process, obs *observer) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, id := range obs.liveTasks() {
		if _, err := p.request(ctx, map[string]any{"subtype": "stop_task", "task_id": id}); err != nil {
			s.log.Debug("stop_task", "task", id, "error", err)
		}
	}
}

// Close ends the session: a running prompt is interrupted, background tasks
// are stopped, then the CLI is shut down (stdin closed, bounded wait,
// SIGTERM, SIGKILL to its process group).
func (s *session) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	p, obs, t, dir := s.proc, s.obs, s.turn, s.tmpDir
	s.proc, s.obs = nil, nil
	s.mu.Unlock()
	s.bgCancel()
	var err error
	if p != nil {
		if t != nil {
			t.cancel()
			ictx, cancel := context.WithTimeout(ctx, 5*time.Second)
			_, _ = p.request(ictx, map[string]any{"subtype": "interrupt"})
			cancel()
		}
		s.stopTasks(p, obs)
		if serr := p.shutdown(ctx); serr != nil {
			err = fmt.Errorf("harness claude-code: %w", serr)
		}
	}
	if dir != "" {
		os.RemoveAll(dir)
	}
	return err
}
