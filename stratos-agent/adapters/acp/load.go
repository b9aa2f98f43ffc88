package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// open starts the ACP session: for a spec that resumes one, session/load
// of it when the agent offers that, else session/new. A load the agent
// refuses (the session's record is gone, say) falls back to a new session
// and Resumed says why, so that the host carries the conversation in its
// first prompt instead: a lost session never fails the execute.
func (s *session) open(ctx context.Context, c *conn, caps agentCapabilities, servers []MCPServer) (newSessionResponse, error) {
	if r := s.spec.Resume; r != nil {
		loaded, err := s.load(ctx, c, caps, r.SessionID, servers)
		if err == nil {
			return loaded, nil
		}
		if ctx.Err() != nil {
			return newSessionResponse{}, s.startError("session/load", err)
		}
		s.log.Debug("acp: the session to resume was not loaded", "session", r.SessionID, "error", err)
		s.mu.Lock()
		s.notResumed = err.Error()
		s.mu.Unlock()
	}
	var created newSessionResponse
	if err := c.call(ctx, methodSessionNew, newSessionRequest{Cwd: s.spec.WorkingDirectory, MCPServers: servers}, &created); err != nil {
		return created, s.startError("session/new", err)
	}
	return created, nil
}

// errNoLoadSession: the agent does not say it can load a session.
var errNoLoadSession = errors.New("the agent does not offer session/load")

// load continues session id, and returns once the history the agent
// streams back has ended (awaitReplay).
func (s *session) load(ctx context.Context, c *conn, caps agentCapabilities, id string, servers []MCPServer) (newSessionResponse, error) {
	switch {
	case !caps.LoadSession:
		return newSessionResponse{}, fmt.Errorf("harness %s: %w", s.agent.Harness, errNoLoadSession)
	case id == "":
		return newSessionResponse{}, fmt.Errorf("harness %s: the conversation to continue has no session ID", s.agent.Harness)
	}
	r := &replay{}
	s.mu.Lock()
	s.replay = r
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.replay = nil
		s.mu.Unlock()
	}()
	var loaded loadSessionResponse
	if err := c.call(ctx, methodSessionLoad, loadSessionRequest{SessionID: id, Cwd: s.spec.WorkingDirectory, MCPServers: servers}, &loaded); err != nil {
		return newSessionResponse{}, fmt.Errorf("harness %s: session/load of %s: %w%s", s.agent.Harness, id, err, remoteDetails(err))
	}
	r.await(ctx, replayQuiet, replayLimit)
	return newSessionResponse{SessionID: id, Models: loaded.Models}, nil
}

// A loaded session's history comes back as session/update notifications
// that are not a reply. ACP lets them trail the load's answer (Gemini CLI
// 0.61 answers after the first and streams the rest), and no message says
// the history has ended, so the load waits for a pause in the updates:
// replayQuiet without one after the answer, at most replayLimit in all.
// The history is written in a loop, message after message; a pause that
// long means it is over. What an agent says after that (its commands) is
// dropped like any update outside a prompt.
const (
	replayQuiet = 300 * time.Millisecond
	replayLimit = 10 * time.Second
)

// replay notes the updates of a loaded session's history.
type replay struct {
	mu   sync.Mutex
	last time.Time
}

func (r *replay) note() {
	r.mu.Lock()
	r.last = time.Now()
	r.mu.Unlock()
}

// await returns once no update came for quiet, or limit after it was
// called, or when ctx ends.
func (r *replay) await(ctx context.Context, quiet, limit time.Duration) {
	start := time.Now()
	deadline := start.Add(limit)
	for {
		r.mu.Lock()
		last := r.last
		r.mu.Unlock()
		if last.Before(start) {
			last = start
		}
		next := last.Add(quiet)
		if next.After(deadline) {
			next = deadline
		}
		wait := time.Until(next)
		if wait <= 0 {
			return
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// replayed notes an update that belongs to a loaded session's history and
// reports whether it does.
func (s *session) replayed() bool {
	s.mu.Lock()
	r := s.replay
	s.mu.Unlock()
	if r == nil {
		return false
	}
	r.note()
	return true
}

// remoteDetails is ": <details>" of an agent's error whose data carries a
// details string (Gemini CLI puts its reason there, under the message
// "Internal error"), else "".
func remoteDetails(err error) string {
	var re *jsonrpc.RemoteError
	if !errors.As(err, &re) || len(re.Data) == 0 {
		return ""
	}
	var d struct {
		Details string `json:"details"`
	}
	if json.Unmarshal(re.Data, &d) != nil || d.Details == "" {
		return ""
	}
	return ": " + d.Details
}

// Resumed reports whether the session continued the one Spec.Resume names,
// and if not why (true when none was named).
func (s *session) Resumed() (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.notResumed == "", s.notResumed
}

var _ adapter.ResumeReporter = (*session)(nil)
