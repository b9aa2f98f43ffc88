//go:build linux

package procgroup

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"sync"
	"syscall"
	"testing"
)

// startToolTree starts a child (a CLI) with tools in sessions of their
// own at two depths, and waits until every tool has its session.
func startToolTree(t testing.TB) *Process {
	dir := t.TempDir()
	script := fmt.Sprintf(`setsid sh -c 'setsid sleep 300 & echo $! > %[1]s/inner.tmp; mv %[1]s/inner.tmp %[1]s/inner; exec sleep 300' &
setsid sleep 301 & echo $! > %[1]s/flat.tmp; mv %[1]s/flat.tmp %[1]s/flat
sh -c 'setsid sleep 302 & echo $! > %[1]s/deep.tmp; mv %[1]s/deep.tmp %[1]s/deep; wait' &
wait`, dir)
	p, err := Start(exec.Command("sh", "-c", script), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Signal(syscall.SIGKILL); _ = p.Wait() })
	for _, name := range []string{"inner", "flat", "deep"} {
		pid := awaitPid(t, filepath.Join(dir, name))
		t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
		waitFor(t, func() bool { q, ok := readProc(pid); return ok && q.sid == pid })
	}
	return p
}

// Reading the child's tree notes the sessions a read of every process
// notes.
func TestNoteSessionsReadsTheTreeAsTheTableDoes(t *testing.T) {
	p := startToolTree(t)
	fromTree := NoteSessions(p.Pid())
	fromTable := noteIn(processTable(), p.Pid())
	if fromTree.Len() != 4 || !reflect.DeepEqual(fromTree.leaders, fromTable.leaders) {
		t.Fatalf("the tree's read noted %v, the table's %v; want the same four sessions", fromTree.leaders, fromTable.leaders)
	}
}

// A process forks from any of its threads (node, and Go, do), and each
// thread lists only its own children: the read takes every thread's list.
func TestTreeOfFindsTheChildrenOfEveryThread(t *testing.T) {
	const n = 8
	pids := make([]int, n)
	var started sync.WaitGroup
	checked := make(chan struct{})
	for i := range n {
		started.Add(1)
		go func() {
			// Each child forked from a thread of its own, which lives until
			// the check: a thread that exits hands its children to another.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cmd := exec.Command("sleep", "300")
			err := cmd.Start()
			if err == nil {
				pids[i] = cmd.Process.Pid
				t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			}
			started.Done()
			if err != nil {
				t.Error(err)
				return
			}
			<-checked
		}()
	}
	started.Wait()
	defer close(checked)
	tree, ok := treeOf(os.Getpid())
	if !ok {
		t.Fatal("treeOf: this kernel keeps no children lists")
	}
	for _, pid := range pids {
		if _, found := tree[pid]; !found {
			t.Errorf("treeOf missed child %d (of %v)", pid, pids)
		}
	}
}

// The tree's read against every process's, on this machine as it is
// (go test -bench NoteSessions ./procgroup/): the ratio of the two is what
// a turn that ran tools saves.
func BenchmarkNoteSessions(b *testing.B) {
	p := startToolTree(b)
	b.Run("tree", func(b *testing.B) {
		for b.Loop() {
			NoteSessions(p.Pid())
		}
	})
	b.Run("table", func(b *testing.B) {
		for b.Loop() {
			noteIn(processTable(), p.Pid())
		}
	})
}
