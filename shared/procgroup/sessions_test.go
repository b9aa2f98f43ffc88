//go:build linux

package procgroup

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSessionsEndWhatLeftTheTree: a child (a CLI) runs a tool in a
// session of its own; the tool leaves a process that is reparented to init
// in a group of its own (timeout with its tail), and the child's own stop
// kills only the tool's leader. Ending the noted sessions ends the
// reparented process; a tool the child starts after the note, and the
// child itself, are left alone.
func TestSessionsEndWhatLeftTheTree(t *testing.T) {
	dir := t.TempDir()
	script := fmt.Sprintf(`setsid sh -c '(timeout 300 tail -f /dev/null & echo $! > %[1]s/orphan.tmp; mv %[1]s/orphan.tmp %[1]s/orphan); exec sleep 300' &
echo $! > %[1]s/leader
while [ ! -e %[1]s/later ]; do sleep 0.05; done
setsid sleep 301 & echo $! > %[1]s/next.tmp; mv %[1]s/next.tmp %[1]s/next
wait`, dir)
	p, err := Start(exec.Command("sh", "-c", script), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Signal(syscall.SIGKILL); _ = p.Wait() })
	orphan := awaitPid(t, filepath.Join(dir, "orphan"))
	t.Cleanup(func() { _ = syscall.Kill(-orphan, syscall.SIGKILL) })
	waitFor(t, func() bool { return reparented(orphan) && len(groupMembers(orphan)) == 2 })

	s := NoteSessions(p.Pid())
	if s.Len() != 1 {
		t.Fatalf("noted %d sessions, want the tool's one", s.Len())
	}
	if err := os.WriteFile(filepath.Join(dir, "later"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	next := awaitPid(t, filepath.Join(dir, "next"))
	t.Cleanup(func() { _ = syscall.Kill(next, syscall.SIGKILL) })
	leader := readPid(t, filepath.Join(dir, "leader"))
	if err := syscall.Kill(leader, syscall.SIGKILL); err != nil { // the child's own stop of its tool
		t.Fatal(err)
	}

	ended := s.End(time.Minute, time.Minute)
	if len(ended) != 2 {
		t.Errorf("End found %v running, want timeout and its tail", ended)
	}
	if left := groupMembers(orphan); len(left) != 0 {
		t.Errorf("the tool's reparented processes still run: %v", left)
	}
	if !alive(next) || !alive(p.Pid()) {
		t.Errorf("End reached the tool started after the note (%d running: %v) or the child (%d running: %v)", next, alive(next), p.Pid(), alive(p.Pid()))
	}
}

// TestSessionsEndNothingWhenTheChildStoppedItsTools: a child that stops its
// tools itself leaves End nothing to signal.
func TestSessionsEndNothingWhenTheChildStoppedItsTools(t *testing.T) {
	dir := t.TempDir()
	script := fmt.Sprintf(`setsid sleep 300 & echo $! > %[1]s/tool.tmp; mv %[1]s/tool.tmp %[1]s/tool; wait`, dir)
	p, err := Start(exec.Command("sh", "-c", script), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Signal(syscall.SIGKILL); _ = p.Wait() })
	tool := awaitPid(t, filepath.Join(dir, "tool"))
	waitFor(t, func() bool { p, ok := readProc(tool); return ok && p.sid == tool })
	s := NoteSessions(p.Pid())
	if s.Len() != 1 {
		t.Fatalf("noted %d sessions, want the tool's one", s.Len())
	}
	_ = syscall.Kill(tool, syscall.SIGTERM)
	if ended := s.End(time.Minute, time.Minute); len(ended) != 0 {
		t.Errorf("End found %v running after the child's own stop", ended)
	}
}

// reparented reports whether pid's parent is out of pid's session: init,
// or a subreaper, once the parent in the tool has exited.
func reparented(pid int) bool {
	p, ok := readProc(pid)
	if !ok {
		return false
	}
	parent, ok := readProc(p.ppid)
	return ok && parent.sid != p.sid
}

// groupMembers lists the running processes of group pgid.
func groupMembers(pgid int) []int {
	var out []int
	for _, p := range processTable() {
		if p.running() && groupOfPid(p.pid) == pgid {
			out = append(out, p.pid)
		}
	}
	return out
}

func groupOfPid(pid int) int {
	pgid, err := syscall.Getpgid(pid)
	if err != nil {
		return -1
	}
	return pgid
}

// TestUpdateKeepsTheSessionsAChildsDeathLeft: sessions noted while a child
// ran its tools are kept after the child died by SIGKILL, when its tools
// have left its tree for init and a new note finds nothing, and End ends
// them; a tool that ended by itself is dropped from the notes.
func TestUpdateKeepsTheSessionsAChildsDeathLeft(t *testing.T) {
	dir := t.TempDir()
	script := fmt.Sprintf(`setsid sh -c 'exec timeout 300 tail -f /dev/null' & echo $! > %[1]s/tool.tmp; mv %[1]s/tool.tmp %[1]s/tool
setsid sleep 301 & echo $! > %[1]s/short.tmp; mv %[1]s/short.tmp %[1]s/short
wait`, dir)
	p, err := Start(exec.Command("sh", "-c", script), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Signal(syscall.SIGKILL); _ = p.Wait() })
	tool := awaitPid(t, filepath.Join(dir, "tool"))
	t.Cleanup(func() {
		for _, m := range sessionMembers(tool) {
			_ = syscall.Kill(m, syscall.SIGKILL)
		}
	})
	short := awaitPid(t, filepath.Join(dir, "short"))
	t.Cleanup(func() { _ = syscall.Kill(short, syscall.SIGKILL) })
	waitFor(t, func() bool { return len(sessionMembers(tool)) == 2 && len(sessionMembers(short)) == 1 })

	var s Sessions
	s.Update(p.Pid())
	if s.Len() != 2 {
		t.Fatalf("noted %d sessions, want the two tools'", s.Len())
	}
	if err := syscall.Kill(short, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return len(sessionMembers(short)) == 0 })
	if err := p.Signal(syscall.SIGKILL); err != nil { // the child dies without stopping its tool
		t.Fatal(err)
	}
	_ = p.Wait()
	if n := len(sessionMembers(tool)); n != 2 || NoteSessions(p.Pid()).Len() != 0 {
		t.Fatalf("after the child's death its tool runs %d processes (want 2, out of its tree: a note finds none)", n)
	}

	s.Update(p.Pid())
	if s.Len() != 1 {
		t.Fatalf("noted %d sessions after the child's death, want the running tool's", s.Len())
	}
	if ended := s.End(0, time.Minute); len(ended) != 2 {
		t.Errorf("End found %v running, want timeout and its tail", ended)
	}
	if left := sessionMembers(tool); len(left) != 0 {
		t.Errorf("the dead child's tool still runs: %v", left)
	}
}

// sessionMembers lists the running processes of session sid.
func sessionMembers(sid int) []int {
	var out []int
	for _, p := range processTable() {
		if p.running() && p.sid == sid {
			out = append(out, p.pid)
		}
	}
	return out
}
