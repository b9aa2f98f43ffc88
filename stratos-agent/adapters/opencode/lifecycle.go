package opencode

import (
	"context"
	"fmt"
	"time"
)

// closeWait bounds how long Close waits for an aborted turn to end before
// it stops the server.
const closeWait = 5 * time.Second

// Cancel aborts the running turn (its execute then aborts the session and
// returns the cancellation error); it returns at once. OpenCode leaves no
// work running between turns, so without a turn there is nothing to stop.
func (s *session) Cancel() {
	if t := s.currentTurn(); t != nil {
		t.cancel()
	}
}

// Close ends the session: a busy turn is aborted and waited for (bounded),
// then the server's process group gets SIGTERM and, if needed, SIGKILL
// (its MCP servers are in the group), the hook server stops and the
// isolated configuration is removed.
func (s *session) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	t, c, sid, srv, hs, stop, iso := s.turn, s.c, s.sid, s.srv, s.hookSrv, s.stop, s.iso
	s.srv, s.c, s.hookSrv, s.stop, s.iso = nil, nil, nil, nil, isolation{}
	s.mu.Unlock()
	if t != nil && c != nil {
		t.cancel()
		s.abort(c, sid)
		timer := time.NewTimer(closeWait)
		select {
		case <-t.done:
		case <-timer.C:
		}
		timer.Stop()
	}
	if stop != nil {
		stop()
	}
	var err error
	if srv != nil {
		if serr := srv.p.Shutdown(ctx); serr != nil {
			err = fmt.Errorf("harness opencode: %w", serr)
		}
	}
	if hs != nil {
		_ = hs.close()
	}
	iso.remove()
	return err
}
