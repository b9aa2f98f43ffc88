package procgroup

import (
	"slices"
	"syscall"
	"time"
)

// Sessions are the sessions of a child's descendants, other than the
// child's own, noted while the child ran: a harness CLI starts each tool in
// a session of its own (setsid), and everything the tool starts stays in
// that session whatever becomes of its parent. When the CLI ends a tool, a
// process of the tool can outlive it: `timeout` killed after the CLI
// listed the tool's processes but before its `tail`, which leads no
// process of the list and sits in timeout's group, could be signalled. The
// survivor is reparented to init (or to a subreaper), out of the CLI's
// tree and out of the group the CLI signalled, and is found by nothing but
// its session. The kernel does not reuse a session's ID while a process is
// in the session, so a survivor found by its session is the tool's.
//
// Noting sessions rather than processes is what reaches a process started
// after the note (the tail above may be forked after any list anybody
// takes), and what never reaches the tools the CLI starts later, in
// sessions of their own. A process that started a session of its own
// (setsid, a daemon) is out of reach, as it is out of reach of a group
// kill.
//
// Making the agent host a child subreaper (PR_SET_CHILD_SUBREAPER) would
// have orphans reparented to the host instead of init, but the host would
// then have to reap every orphan of every agent and of everything else it
// starts without taking an exit status an exec.Cmd waits for (wait4(-1)
// races with exec.Cmd.Wait), could not tell which agent an orphan came
// from, and would still need the orphan's session to know it belonged to a
// cancelled tool. Without /proc (not Linux) nothing is noted.
type Sessions struct {
	// leaders maps a session's ID to its leader's start time when noted
	// (0: the leader had already exited).
	leaders map[int]uint64
}

// Len is the number of noted sessions.
func (s Sessions) Len() int { return len(s.leaders) }

// End ends what still runs in the noted sessions once their owner has had
// its turn: it waits up to settle for the sessions' leaders to exit (the
// child stops its tools its own way first), sends SIGTERM to every process
// still in them, waits up to grace, and sends SIGKILL to what is left. It
// returns the processes it found still running, in pid order (none when
// the child's own stop left nothing).
func (s Sessions) End(settle, grace time.Duration) []int {
	if s.Len() == 0 {
		return nil
	}
	waitUntil(settle, func() bool { return !s.leaderRuns() })
	left := s.members()
	found := make([]int, 0, len(left))
	for _, p := range left {
		p.signal(syscall.SIGTERM)
		found = append(found, p.pid)
	}
	if len(left) > 0 {
		waitUntil(grace, func() bool { return len(s.members()) == 0 })
		for _, p := range s.members() {
			p.signal(syscall.SIGKILL)
		}
	}
	slices.Sort(found)
	return found
}

// waitUntil polls done until it holds or bound has passed.
func waitUntil(bound time.Duration, done func() bool) {
	deadline := time.Now().Add(bound)
	for !done() && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}
