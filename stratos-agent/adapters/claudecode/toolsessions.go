package claudecode

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/procgroup"
)

// Claude Code runs each shell command of its Bash tool in a session of its
// own, started by the CLI itself (lifecycle.go). While the CLI lives, a
// note of its descendants' sessions finds them; once it died unexpectedly
// (kill -9, a crash), they are init's, in sessions its process group does
// not reach, and nothing finds them any more. So the adapter notes the
// session of each shell as it starts and, when the CLI exits without being
// closed, ends what still runs in the noted sessions.
//
// A shell starts once the host has answered the Bash call's PreToolUse
// hook (every tool call has one: hooks.go), a moment later. From the
// answer on, the CLI's children are looked at every shellLook
// (procgroup.Watch: the processes that appeared since the last look) until
// as many new sessions showed up as shells were started, then at growing
// intervals while a call has no result yet, for at most noteWindow. At
// each call's result (the CLI writes one for every call, refused and
// interrupted ones too) the CLI's descendants are noted in full, which
// also finds a background shell the call started and returned from at
// once, and drops the noted sessions nothing runs in any more. What
// remains open: a CLI killed within a look of its shell's start, and a
// command that starts a session of its own (setsid, a daemon), as for
// every other stop (procgroup.Sessions).
const (
	shellTool = "Bash"
	// shellLook is the interval between looks while a started shell was
	// not seen yet: a look reads /proc's list and the new processes only.
	shellLook = 5 * time.Millisecond
	// maxLookInterval bounds the growing intervals (half the time since
	// the latest start).
	maxLookInterval = time.Second
	// noteWindow bounds the looks after the latest start: a shell starts
	// well within it.
	noteWindow = 30 * time.Second
)

// toolSessions notes the sessions of the shells one CLI runs and ends what
// runs in them when the CLI exits unexpectedly.
type toolSessions struct {
	pid    int
	exited <-chan struct{} // the CLI has exited and was reaped
	log    hclog.Logger
	wake   chan struct{} // a shell started or a call ended: look at once

	// closing is set when the session's Close takes the notes over, or
	// when the CLI's unexpected exit ends what they hold: nothing is
	// noted afterwards.
	closing atomic.Bool

	mu        sync.Mutex
	pending   map[string]bool // shell calls started without a result yet
	unseen    int             // started shells whose session no look found yet
	ended     bool            // a call ended since the last note: note in full
	lastStart time.Time
	noting    bool // a noting goroutine runs

	notesMu sync.Mutex // held while /proc is read, never by the reader goroutine
	noted   procgroup.Sessions
}

func newToolSessions(pid int, exited <-chan struct{}, log hclog.Logger) *toolSessions {
	ts := &toolSessions{pid: pid, exited: exited, log: log, wake: make(chan struct{}, 1), pending: map[string]bool{}}
	go ts.endOnExit()
	return ts
}

// started notes that the call id of tool is about to run.
func (ts *toolSessions) started(id, tool string) {
	if tool != shellTool {
		return
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closing.Load() {
		return
	}
	ts.pending[id] = true
	ts.unseen++
	ts.lastStart = time.Now()
	ts.poke()
}

// noteResults notes the shell calls a user frame carries the results of.
// It runs on the reader goroutine and does not wait for a note.
func (ts *toolSessions) noteResults(f *frame) {
	if f.Type != "user" {
		return
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, b := range f.Message.blocks() {
		if b.Type == "tool_result" && ts.pending[b.ToolUseID] {
			delete(ts.pending, b.ToolUseID)
			ts.unseen = min(ts.unseen, len(ts.pending))
			ts.ended = true
			ts.poke()
		}
	}
}

// poke has the noting goroutine look at once, starting it when none runs.
// ts.mu is held.
func (ts *toolSessions) poke() {
	if !ts.noting {
		ts.noting = true
		go ts.note()
	}
	select {
	case ts.wake <- struct{}{}:
	default:
	}
}

// note looks at the CLI's children until nextLook says to stop. Its first
// look, at the first start, reads every process: the later ones read what
// appeared since.
func (ts *toolSessions) note() {
	watch := procgroup.WatchChildren(ts.pid)
	timer := time.NewTimer(maxLookInterval)
	defer timer.Stop()
	for {
		select {
		case <-ts.exited:
			ts.mu.Lock()
			ts.noting = false
			ts.mu.Unlock()
			return
		case <-ts.wake:
		case <-timer.C:
		}
		ts.mu.Lock()
		full := ts.ended
		ts.ended = false
		ts.mu.Unlock()
		found := ts.look(watch, full)
		wait, more := ts.nextLook(found)
		if !more {
			return
		}
		timer.Reset(wait)
	}
}

// look notes the sessions of the CLI's new children, or, when full, of
// all its descendants, and returns how many were not noted yet.
func (ts *toolSessions) look(watch *procgroup.Watch, full bool) int {
	ts.notesMu.Lock()
	defer ts.notesMu.Unlock()
	if ts.closing.Load() {
		return 0
	}
	if full {
		before := ts.noted.Len()
		ts.noted.Update(ts.pid)
		return max(0, ts.noted.Len()-before)
	}
	return watch.Look(&ts.noted)
}

// nextLook is the wait before the next look, or false when none is due
// (the goroutine then ends).
func (ts *toolSessions) nextLook(found int) (time.Duration, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.unseen = max(0, ts.unseen-found)
	since := time.Since(ts.lastStart)
	if ts.closing.Load() || len(ts.pending) == 0 && !ts.ended || since > noteWindow {
		clear(ts.pending)
		ts.unseen, ts.noting = 0, false
		return 0, false
	}
	if ts.unseen > 0 || ts.ended {
		return shellLook, true
	}
	return min(maxLookInterval, max(shellLook, since/2)), true
}

// takeOver notes once more and hands the notes to the session's Close,
// which ends what they hold once the CLI has stopped its tools.
func (ts *toolSessions) takeOver() procgroup.Sessions {
	ts.closing.Store(true)
	ts.notesMu.Lock()
	defer ts.notesMu.Unlock()
	select {
	case <-ts.exited: // nothing descends from it any more
	default:
		ts.noted.Update(ts.pid)
	}
	return ts.noted
}

// endOnExit ends what runs in the noted sessions once the CLI exited,
// unless Close took them over: nobody else is left to stop those tools.
func (ts *toolSessions) endOnExit() {
	<-ts.exited
	if !ts.closing.CompareAndSwap(false, true) {
		return
	}
	ts.notesMu.Lock()
	left := ts.noted
	ts.notesMu.Unlock()
	if ended := left.End(0, leftoverGrace); len(ended) > 0 {
		ts.log.Warn("claude exited while its tools ran; ended the processes they left running", "pids", ended)
	}
}
