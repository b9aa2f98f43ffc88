package claudecode

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/stratoscli/stratos/shared/procgroup"
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
	go func() {
		tools := procgroup.NoteSessions(p.pid())
		s.stopTasks(p, obs)
		s.endLeftovers(tools)
	}()
}

// cancelTurn marks t cancelled and, once per turn, sends interrupt and
// stop_task for each live background task (interrupt alone leaves
// background shells running: docs/design/claude-code-cli.md), then ends
// what the CLI left of the tools it stopped.
func (s *session) cancelTurn(p *process, obs *observer, t *turn) {
	t.mu.Lock()
	first := !t.cancelled
	t.mu.Unlock()
	t.cancel()
	if !first {
		return
	}
	go func() {
		tools := procgroup.NoteSessions(p.pid())
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := p.request(ctx, interrupt()); err != nil {
			s.log.Debug("interrupt", "error", err)
		}
		s.stopTasks(p, obs)
		s.endLeftovers(tools)
	}()
}

// Claude Code runs each tool in a session of its own and kills a stopped
// tool by listing its processes and signalling them and the tool's group.
// A process forked after the list, in a group of its own (the tail of
// `timeout N tail -f …`, whose timeout was killed), survives reparented to
// init. The sessions of the CLI's descendants are noted before the
// interrupt and whatever is still in them once the CLI has stopped its
// tools is ended (procgroup.Sessions says why sessions, and not the
// descendants' pids or a subreaper): tools the CLI starts later, in new
// sessions, and its MCP servers, in its own session, are never touched.
const (
	// toolStopWait bounds the CLI's own stop of its tools (it kills a
	// foreground tool at once; a background task gets SIGTERM and, 5 s
	// later, SIGKILL).
	toolStopWait = 6 * time.Second
	// leftoverGrace is what a leftover gets between SIGTERM and SIGKILL.
	leftoverGrace = 2 * time.Second
)

// endLeftovers ends what still runs in the noted tool sessions.
func (s *session) endLeftovers(tools procgroup.Sessions) {
	if ended := tools.End(toolStopWait, leftoverGrace); len(ended) > 0 {
		s.log.Info("ended processes of stopped tools that claude left running", "pids", ended)
	}
}

func (s *session) stopTasks(p *process, obs *observer) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, id := range obs.liveTasks() {
		if _, err := p.request(ctx, stopTaskRequest{Subtype: "stop_task", TaskID: id}); err != nil {
			s.log.Debug("stop_task", "task", id, "error", err)
		}
	}
}

// Close ends the session: a running prompt is interrupted, background tasks
// are stopped, then the CLI is shut down (stdin closed, bounded wait,
// SIGTERM, SIGKILL to its process group) and what it left of its tools is
// ended: in the sessions noted as its tools started (toolsessions.go) and
// in those its descendants are in now.
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
		tools := p.tools.takeOver()
		if t != nil {
			t.cancel()
			ictx, cancel := context.WithTimeout(ctx, 5*time.Second)
			_, _ = p.request(ictx, interrupt())
			cancel()
		}
		s.stopTasks(p, obs)
		if serr := p.shutdown(ctx); serr != nil {
			err = fmt.Errorf("harness claude-code: %w", serr)
		}
		s.endLeftovers(tools)
	}
	if dir != "" {
		os.RemoveAll(dir)
	}
	return err
}
