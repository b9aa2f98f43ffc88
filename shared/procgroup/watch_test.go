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

// TestWatchNotesTheSessionsChildrenStart: a look notes the session a
// child's child started since the last look, also one that started it
// after the look saw the fork; the child's own session, processes of the
// noted sessions and the sessions found before are not counted again. After
// the child died by SIGKILL (its tools reparented to init, where no note
// of its descendants finds them), End ends what the looks noted.
func TestWatchNotesTheSessionsChildrenStart(t *testing.T) {
	dir := t.TempDir()
	script := fmt.Sprintf(`while [ ! -e %[1]s/start ]; do sleep 0.05; done
setsid sh -c 'exec timeout 300 tail -f /dev/null' & echo $! > %[1]s/tool.tmp; mv %[1]s/tool.tmp %[1]s/tool
sleep 303 &
(while [ ! -e %[1]s/go ]; do sleep 0.05; done; exec setsid sleep 302) & echo $! > %[1]s/late.tmp; mv %[1]s/late.tmp %[1]s/late
wait`, dir)
	p, err := Start(exec.Command("sh", "-c", script), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Signal(syscall.SIGKILL); _ = p.Wait() })
	w := WatchChildren(p.Pid())
	var s Sessions
	if n := w.Look(&s); n != 0 {
		t.Fatalf("the first look found %d sessions before the child started any", n)
	}
	touch(t, filepath.Join(dir, "start"))
	tool := awaitPid(t, filepath.Join(dir, "tool"))
	late := awaitPid(t, filepath.Join(dir, "late"))
	t.Cleanup(func() {
		for _, sid := range []int{tool, late} {
			for _, m := range sessionMembers(sid) {
				_ = syscall.Kill(m, syscall.SIGKILL)
			}
		}
	})
	waitFor(t, func() bool { return len(sessionMembers(tool)) == 2 })
	if n := w.Look(&s); n != 1 || s.Len() != 1 {
		t.Fatalf("a look after the tool started added %d sessions (noted %d), want the tool's", n, s.Len())
	}
	if n := w.Look(&s); n != 0 {
		t.Fatalf("a look with nothing new added %d sessions", n)
	}
	touch(t, filepath.Join(dir, "go"))
	waitFor(t, func() bool { q, ok := readProc(late); return ok && q.sid == late })
	if n := w.Look(&s); n != 1 || s.Len() != 2 {
		t.Fatalf("a look after a child started its session late added %d sessions (noted %d), want it", n, s.Len())
	}

	if err := p.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.Wait()
	if NoteSessions(p.Pid()).Len() != 0 {
		t.Fatal("a note of the dead child's descendants found its tools")
	}
	if ended := s.End(0, time.Minute); len(ended) != 3 {
		t.Errorf("End found %v running, want timeout, its tail and the late sleep", ended)
	}
	if left := append(sessionMembers(tool), sessionMembers(late)...); len(left) != 0 {
		t.Errorf("the dead child's tools still run: %v", left)
	}
}

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkWatchLook, against BenchmarkNoteSessions' table: a look reads
// only what appeared since the last look (the claude-code adapter looks
// every few milliseconds while a shell starts).
func BenchmarkWatchLook(b *testing.B) {
	w := WatchChildren(os.Getpid())
	var s Sessions
	w.Look(&s)
	for b.Loop() {
		w.Look(&s)
	}
}
