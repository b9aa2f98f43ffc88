package codex

import (
	"context"
	"fmt"
	"os"
	"time"
)

// controlTimeout bounds turn/interrupt and the background-terminal cleanup.
const controlTimeout = 10 * time.Second

// Cancel interrupts the running turn and cleans the thread's background
// terminals (an interrupt alone leaves a running command alive); it
// returns at once. Without a running turn it only cleans.
func (s *session) Cancel() {
	s.mu.Lock()
	c, tid, t := s.conn, s.threadID, s.turn
	s.mu.Unlock()
	if c == nil || tid == "" {
		return
	}
	if t != nil {
		t.cancel()
		return // runTurn interrupts and cleans
	}
	go s.cleanTerminals(c, tid)
}

// interrupt sends turn/interrupt for t (once) and then cleans the
// thread's background terminals.
func (s *session) interrupt(c *conn, tid string, t *turn) {
	ctx, cancel := context.WithTimeout(context.Background(), controlTimeout)
	defer cancel()
	if id := t.nativeID(); id != "" {
		if err := c.call(ctx, "turn/interrupt", map[string]any{"threadId": tid, "turnId": id}, nil); err != nil {
			s.log.Debug("turn/interrupt", "error", err)
		}
	}
	s.cleanTerminals(c, tid)
}

func (s *session) cleanTerminals(c *conn, tid string) {
	ctx, cancel := context.WithTimeout(context.Background(), controlTimeout)
	defer cancel()
	if err := c.call(ctx, "thread/backgroundTerminals/clean", map[string]any{"threadId": tid}, nil); err != nil {
		s.log.Debug("thread/backgroundTerminals/clean", "error", err)
	}
}

// Close ends the session: a running turn is interrupted and background
// terminals cleaned, then the app-server is shut down (stdin closed,
// bounded wait, SIGTERM, SIGKILL to its process group), the hook server
// stopped and the isolated Codex home removed.
func (s *session) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	c, tid, t := s.conn, s.threadID, s.turn
	s.conn = nil
	s.mu.Unlock()
	var err error
	if c != nil {
		if t != nil {
			t.cancel()
			s.interrupt(c, tid, t)
		} else if tid != "" {
			s.cleanTerminals(c, tid)
		}
		if serr := c.p.Shutdown(ctx); serr != nil {
			err = fmt.Errorf("harness codex: %w", serr)
		}
	}
	s.mu.Lock()
	hs, home, prov := s.hookSrv, s.home, s.provider
	s.hookSrv, s.home, s.provider.proxy = nil, "", nil
	s.mu.Unlock()
	closeProxy(prov)
	if hs != nil {
		_ = hs.close()
	}
	if home != "" {
		os.RemoveAll(home)
	}
	return err
}
