package procgroup

import (
	"os"
	"strconv"
)

// Watch follows the sessions one child's children start. A note of the
// child's descendants reads its whole tree (NoteSessions) or every process
// of /proc (Sessions.Update), too much to repeat every few milliseconds; a
// look reads the list of /proc and only the processes that appeared since
// the last look.
// A process's parent never becomes the child later (an orphan goes to init
// or a subreaper), so a process is read once, when it first appears,
// unless it is the child's child still in the child's session: a child
// forks before it starts a session of its own, and is read again at each
// look until it has. Only the child's own children are looked at: their
// descendants stay in their sessions (see Sessions). A Watch is used by
// one goroutine at a time.
type Watch struct {
	child     int
	exclude   map[int]bool // the child's session and this process's
	listed    map[int]bool // the processes in /proc at the last look
	unsettled map[int]bool // children still in the child's session
}

// WatchChildren starts following pid's children; the first look reads
// every process.
func WatchChildren(pid int) *Watch {
	w := &Watch{child: pid, exclude: map[int]bool{}, unsettled: map[int]bool{}}
	for _, p := range []int{pid, os.Getpid()} {
		if q, ok := readProc(p); ok {
			w.exclude[q.sid] = true
		}
	}
	return w
}

// Look notes in s the sessions of the child's children that appeared
// since the last look, or that left the child's session since, and
// returns how many sessions s did not hold yet.
func (w *Watch) Look(s *Sessions) int {
	f, err := os.Open("/proc")
	if err != nil {
		return 0
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	listed := make(map[int]bool, len(names))
	added := 0
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		listed[pid] = true
		if w.listed[pid] && !w.unsettled[pid] {
			continue
		}
		delete(w.unsettled, pid)
		p, ok := readProc(pid)
		switch {
		case !ok || p.ppid != w.child || !p.running():
		case w.exclude[p.sid]:
			w.unsettled[pid] = true
		case s.add(p.sid, leaderStart(p)):
			added++
		}
	}
	for pid := range w.unsettled {
		if !listed[pid] {
			delete(w.unsettled, pid)
		}
	}
	w.listed = listed
	return added
}

// leaderStart is the start time of the leader of p's session, 0 when it
// is gone.
func leaderStart(p proc) uint64 {
	if p.pid == p.sid {
		return p.start
	}
	if leader, ok := readProc(p.sid); ok {
		return leader.start
	}
	return 0
}
