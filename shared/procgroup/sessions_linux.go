package procgroup

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// NoteSessions notes the sessions pid's running descendants are in, other
// than pid's own and this process's (see Sessions). It reads pid's tree
// alone, through each process's list of children, rather than every
// process of the machine: adapters note after every turn that ran tools,
// and a full read grows with everything else the machine runs (3–18 ms
// on a busy machine of a hundred processes, against a turn's 20 ms). A
// kernel without those lists has the whole table read instead.
func NoteSessions(pid int) Sessions {
	if tree, ok := treeOf(pid); ok {
		return noteIn(tree, pid)
	}
	return noteIn(processTable(), pid)
}

// treeOf reads pid and its descendants, found through the children lists
// of /proc/<pid>/task/<tid>/children (each thread lists the children it
// forked). It reports false when pid has no such list: the kernel does not
// keep them, or pid is gone.
func treeOf(pid int) (map[int]proc, bool) {
	root, ok := readProc(pid)
	if !ok {
		return nil, false
	}
	children, listed := childrenOf(pid)
	if !listed {
		return nil, false
	}
	tree := map[int]proc{pid: root}
	for queue := children; len(queue) > 0; queue = queue[1:] {
		c := queue[0]
		if _, seen := tree[c]; seen {
			continue // a pid reused during the walk
		}
		if p, ok := readProc(c); ok {
			tree[c] = p
			grand, _ := childrenOf(c)
			queue = append(queue, grand...)
		}
	}
	return tree, true
}

// childrenOf lists the children of every thread of pid, and reports
// whether any thread's list could be read (none: pid is gone, or the
// kernel keeps no lists). A child forked or reparented during the read
// may be missed, as it may be by a read of the whole table.
func childrenOf(pid int) ([]int, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil, false
	}
	var out []int
	listed := false
	for _, t := range tasks {
		b, err := os.ReadFile(dir + t.Name() + "/children")
		if err != nil {
			continue
		}
		listed = true
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out, listed
}

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
			s.leaders[p.sid] = leaderStartIn(table, p)
		}
	}
	return s
}

// leaderStartIn is the start time of the leader of p's session, read from
// table or else from /proc (a leader alive out of the tree read), 0 when
// it is gone.
func leaderStartIn(table map[int]proc, p proc) uint64 {
	if leader, ok := table[p.sid]; ok {
		return leader.start
	}
	return leaderStart(p)
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
