package host

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// A resumed run's agent whose earlier executes were answered from the
// journal continues their harness conversation on its first real execute.
// An adapter that ResumesSessions keeps what a later execution needs in a
// state directory of the run record (stateDirsName/<agent>/<harness>); the
// host copies the resumed session's state into the new agent's own before
// the adapter starts, so the resumed record stays as it was and each
// resume starts from the same state.

// stateDirsName is the run record's directory of the agents' harness state.
const stateDirsName = "harness"

// stateDirMode keeps other users out: the state holds conversations.
const stateDirMode = 0o700

// stateDir is where session s keeps its state on harness: created empty.
func (h *Host) stateDir(s *session, harness string) (string, error) {
	if h.runDir == "" {
		return "", nil
	}
	dir := filepath.Join(h.runDir, stateDirsName, strings.NewReplacer("/", "_", string(filepath.Separator), "_").Replace(s.id), harness)
	if err := os.MkdirAll(dir, stateDirMode); err != nil {
		return "", agentproto.Errorf(agentproto.CodeInitialization, "agent %q: harness state directory: %v", s.name, err).Wrap(err)
	}
	return dir, nil
}

// sessionSpec sets the state directory and the session to resume of cs, a
// candidate's spec on harness reg, for session s.
func (h *Host) sessionSpec(s *session, reg adapter.Harness, cs *adapter.Spec) error {
	if !reg.Capabilities.ResumesSessions {
		return nil
	}
	dir, err := h.stateDir(s, cs.Harness)
	if err != nil || dir == "" {
		return err
	}
	cs.StateDir = dir
	s.noteStateDir(cs.Harness, dir)
	c := s.continuation()
	if c == nil || c.Session.Harness != cs.Harness {
		return nil
	}
	if c.Session.State != "" {
		if _, err := os.Stat(c.Session.State); errors.Is(err, fs.ErrNotExist) {
			// The run record that kept the conversation was removed (runs
			// prune): the conversation cannot go on, but the run can, as on
			// a harness that cannot continue sessions. Failing here would
			// fail this resume and every later one of the chain alike.
			s.noteLostState(fmt.Sprintf("the resumed session's state %s is gone (its run record was removed)", c.Session.State))
			return nil
		}
		if err := copyState(c.Session.State, dir); err != nil {
			return agentproto.Errorf(agentproto.CodeInitialization, "agent %q: copy the resumed session's state from %s: %v", s.name, c.Session.State, err).Wrap(err)
		}
	}
	cs.Resume = &adapter.Resume{SessionID: c.Session.ID, Calls: c.Calls}
	return nil
}

// noteLostState records why the session cannot continue the conversation
// it was asked to, for reportContinuation.
func (s *session) noteLostState(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lostState = why
}

func (s *session) lostStateReason() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lostState
}

// reportContinuation records, once the session started on harness,
// whether it continued the conversation the execute asked for; when the
// harness cannot, it frames the conversation's replayed exchange for the
// session's first prompt (carryTranscript).
func (s *session) reportContinuation(harness string, reg adapter.Harness, known bool, a adapter.Adapter) {
	c := s.continuation()
	if c == nil {
		return
	}
	e := &eventapi.AgentSessionContinued{Harness: harness, SessionID: c.Session.ID, Calls: c.Calls}
	lost := s.lostStateReason()
	switch {
	case !continuesNatively(reg, known):
		e.Reason = fmt.Sprintf("harness %s cannot continue a session", harness)
	case c.Session.Harness != harness:
		e.Reason = fmt.Sprintf("the conversation ran on harness %s, the agent now runs on %s", c.Session.Harness, harness)
	case lost != "":
		e.Reason = lost
	default:
		e.Continued, e.Reason = resumed(a)
	}
	if !e.Continued {
		t := frameTranscript(c, transcriptLimit)
		if t.carried > 0 {
			e.ByTranscript, e.Exchanges, e.Omitted = true, t.carried, t.omitted
			e.Reason += ": the agent starts a new session whose first prompt carries the replayed exchange"
			s.mu.Lock()
			s.transcript = t.text
			s.mu.Unlock()
		} else {
			e.Reason += ": the agent starts a new conversation"
		}
	}
	s.event(e)
}

// resumed is whether adapter a continued the session it was given, and
// if not why: an adapter that does not report it always does.
func resumed(a adapter.Adapter) (bool, string) {
	r, ok := a.(adapter.ResumeReporter)
	if !ok {
		return true, ""
	}
	if ok, why := r.Resumed(); !ok {
		return false, why
	}
	return true, ""
}

// continuesNatively reports whether harness reg continues a session itself.
func continuesNatively(reg adapter.Harness, known bool) bool {
	return known && reg.Capabilities.ResumesSessions
}

// carryTranscript is prompt as the harness is sent it: on the session's
// first execute after a conversation it could not continue, with that
// conversation's exchange before it (once).
func (s *session) carryTranscript(prompt string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.transcript
	s.transcript = ""
	return t + prompt
}

// keepPrompt sets res's prompt, for the journal, when the session's
// harness cannot continue a session, or may fail to (a ResumeReporter): a
// resumed run then carries it in a new session's first prompt. A harness
// that always continues sessions itself does not need it, and its journal
// stays small.
func (s *session) keepPrompt(pr *prepared, res *agentproto.ExecuteResult, prompt string) *agentproto.ExecuteResult {
	if res == nil {
		return nil
	}
	reg, known := s.h.harnesses[pr.selection.harness()]
	_, mayFail := pr.selection.current().(adapter.ResumeReporter)
	if mayFail || !continuesNatively(reg, known) {
		res.Prompt = &prompt
	}
	return res
}

// resumedWorktree is wt for an agent that continues a conversation: one
// without a name of its own gets back the worktree the conversation
// worked in (a fresh name would leave that work behind); a named one
// already finds it by its name.
func (s *session) resumedWorktree(wt agentproto.Worktree) agentproto.Worktree {
	c := s.continuation()
	if c == nil || c.Session.Worktree == "" || (wt.Name != nil && *wt.Name != "") {
		return wt
	}
	name := c.Session.Worktree
	wt.Name = &name
	return wt
}

func (s *session) noteWorktree(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.worktree = name
}

// copyState copies the regular files and directories under from into to.
// Symbolic links are not followed nor copied: the state is the adapter's
// own files, never a link out of the record (a saved login, say).
func copyState(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, stateDirMode)
		case d.Type().IsRegular():
			return copyFile(path, target)
		}
		return nil
	})
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
