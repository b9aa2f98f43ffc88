package procgroup

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// NoteSessions notes the sessions pid's running descendants are in, other
// than pid's own and this process's (see Sessions).
func NoteSessions(pid int) Sessions { return noteIn(processTable(), pid) }

// Update adds to s the sessions pid's running descendants are in now, as
// NoteSessions notes them, and drops the noted sessions nothing runs in any
// more. Noting a child's sessions again as it starts tools, rather than
// once when it is to be stopped, is what still reaches them after the
// child died unexpectedly and its tools left its tree. An empty session
// stays empty (only its members could add to it), so dropping it loses
// nothing, and its ID, which the kernel may then reuse, never reaches a
// session started since.
func (s *Sessions) Update(pid int) {
	table := processTable()
	occupied := map[int]bool{}
	for _, p := range table {
		if p.running() {
			occupied[p.sid] = true
		}
	}
	for sid := range s.leaders {
		if !occupied[sid] {
			delete(s.leaders, sid)
		}
	}
	for sid, start := range noteIn(table, pid).leaders {
		s.add(sid, start)
	}
}

// add notes the session sid, whose leader started at start (0: gone), and
// reports whether it was not noted yet. A leader gone since an earlier
// note leaves the noted start time; another leader means the ID was
// reused after the session emptied.
func (s *Sessions) add(sid int, start uint64) bool {
	if s.leaders == nil {
		s.leaders = map[int]uint64{}
	}
	old, seen := s.leaders[sid]
	if !seen || start != 0 && start != old {
		s.leaders[sid] = start
	}
	return !seen
}

// noteIn notes pid's descendants' sessions as they are in table.
func noteIn(table map[int]proc, pid int) Sessions {
	exclude := map[int]bool{}
	if self, ok := readProc(os.Getpid()); ok {
		exclude[self.sid] = true
	}
	if child, ok := table[pid]; ok {
		exclude[child.sid] = true
	}
	s := Sessions{leaders: map[int]uint64{}}
	for _, p := range descendants(table, pid) {
		if _, seen := s.leaders[p.sid]; !seen && !exclude[p.sid] {
			s.leaders[p.sid] = table[p.sid].start // 0 when the leader is gone
		}
	}
	return s
}

// descendants lists pid's descendants in table, found by parent.
func descendants(table map[int]proc, pid int) []proc {
	children := map[int][]int{}
	for _, p := range table {
		children[p.ppid] = append(children[p.ppid], p.pid)
	}
	var out []proc
	// visited guards against a cycle that a pid reused during the scan
	// can make of the parent links.
	visited := map[int]bool{pid: true}
	for queue := slices.Clone(children[pid]); len(queue) > 0; {
		p := table[queue[0]]
		queue = queue[1:]
		if !visited[p.pid] {
			visited[p.pid] = true
			out = append(out, p)
			queue = append(queue, children[p.pid]...)
		}
	}
	return out
}

// leaderRuns reports whether a noted session's leader still runs.
func (s Sessions) leaderRuns() bool {
	for sid, start := range s.leaders {
		if p, ok := readProc(sid); ok && start != 0 && p.start == start && p.running() {
			return true
		}
	}
	return false
}

// members lists the running processes of the noted sessions. A session
// whose ID now belongs to a leader other than the noted one was reused,
// and is left alone.
func (s Sessions) members() []proc {
	var out []proc
	for _, p := range processTable() {
		start, noted := s.leaders[p.sid]
		if !noted || !p.running() {
			continue
		}
		if leader, ok := readProc(p.sid); ok && start != 0 && leader.start != start {
			continue
		}
		out = append(out, p)
	}
	return out
}

// proc is what /proc/<pid>/stat says about a process.
type proc struct {
	pid, ppid, sid int
	state          string
	start          uint64 // clock ticks after boot
}

func (p proc) running() bool { return p.state != "Z" && p.state != "X" }

// signal sends sig to p if p is still the process it was (same start time,
// same session), so that a pid reused since p was read is never signalled.
func (p proc) signal(sig syscall.Signal) bool {
	now, ok := readProc(p.pid)
	if !ok || now.start != p.start || now.sid != p.sid {
		return false
	}
	return syscall.Kill(p.pid, sig) == nil
}

// processTable reads every process of /proc by pid.
func processTable() map[int]proc {
	entries, _ := os.ReadDir("/proc")
	table := make(map[int]proc, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			table[pid] = p
		}
	}
	return table
}

// readProc parses /proc/<pid>/stat. The command name is in parentheses
// and may itself hold spaces and parentheses, so the fields are counted
// from the last ')': state, parent, group, session, … start time (the
// 22nd field of the line).
func readProc(pid int) (proc, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 20 {
		return proc{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	sid, err2 := strconv.Atoi(f[3])
	start, err3 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return proc{}, false
	}
	return proc{pid: pid, ppid: ppid, sid: sid, state: f[0], start: start}, true
}
