package process

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var fast = Grace{StdinClose: 200 * time.Millisecond, Terminate: 200 * time.Millisecond, Kill: 2 * time.Second, Drain: 200 * time.Millisecond}

func startSh(t *testing.T, script string, stdout func([]byte)) *Process {
	t.Helper()
	p, err := Start(Spec{Name: "sh", Path: "/bin/sh", Args: []string{"-c", script}, Stdout: stdout, Grace: fast})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Signal(syscall.SIGKILL) })
	return p
}

func waitExited(t *testing.T, p *Process) {
	t.Helper()
	select {
	case <-p.Exited():
	case <-time.After(time.Minute):
		t.Fatal("the process did not exit")
	}
}

func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// A zombie (state Z) is dead, only not yet reaped by its parent.
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

func TestStdoutLinesInOrderWhateverTheirLength(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	long := strings.Repeat("x", 300<<10)
	p := startSh(t, "echo one; echo; head -c 307200 /dev/zero | tr '\\0' x; echo; echo '  three  '", func(b []byte) {
		mu.Lock()
		lines = append(lines, string(b))
		mu.Unlock()
	})
	waitExited(t, p)
	mu.Lock()
	defer mu.Unlock()
	if len(lines) != 3 || lines[0] != "one" || lines[1] != long || lines[2] != "three" {
		t.Fatalf("got %d lines (first %q)", len(lines), lines[0])
	}
}

func TestExitErrorQuotesTheEndOfStderr(t *testing.T) {
	p, err := Start(Spec{Name: "cli", Path: "/bin/sh", Args: []string{"-c", "for i in $(seq 1 200); do echo noise-$i >&2; done; echo the-real-cause >&2; exit 3"},
		StderrTail: 64, Grace: fast})
	if err != nil {
		t.Fatal(err)
	}
	waitExited(t, p)
	msg := p.ExitError().Error()
	if !strings.HasPrefix(msg, "cli exited: exit status 3") || !strings.Contains(msg, "the-real-cause") || strings.Contains(msg, "noise-1\n") {
		t.Fatalf("exit error %q", msg)
	}
	if err := p.WriteLine([]byte("late")); err != ErrStdinClosed {
		t.Fatalf("write after exit: %v", err)
	}
}

// A write that meets a process which has just exited fails as
// ErrStdinClosed however far the reaping got, and ExitError then has the
// exit status and stderr, not the write's error (a CLI that dies at start
// is reported by its own words).
func TestAWriteToAnExitedProcessIsItsEnd(t *testing.T) {
	for range 20 {
		p, err := Start(Spec{Name: "cli", Path: "/bin/sh", Args: []string{"-c", "echo dies-on-purpose >&2; exit 3"}, Grace: fast})
		if err != nil {
			t.Fatal(err)
		}
		var werr error
		for werr == nil {
			werr = p.WriteLine([]byte(strings.Repeat("x", 4096)))
		}
		if !errors.Is(werr, ErrStdinClosed) {
			t.Fatalf("write to an exited process: %v, want ErrStdinClosed", werr)
		}
		if msg := p.ExitError().Error(); !strings.HasPrefix(msg, "cli exited: exit status 3") || !strings.Contains(msg, "dies-on-purpose") {
			t.Fatalf("exit error %q", msg)
		}
	}
}

func TestStdinCloseEndsACooperativeCLI(t *testing.T) {
	var got []string
	p := startSh(t, "while read l; do echo got-$l; done", func(b []byte) { got = append(got, string(b)) })
	if err := p.WriteLine([]byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "got-a" {
		t.Fatalf("stdout %v", got)
	}
}

func TestShutdownEscalatesToTheWholeGroup(t *testing.T) {
	// The CLI ignores stdin and SIGTERM; its child (same group) would
	// survive a signal to the CLI alone.
	pidCh := make(chan int, 1)
	p := startSh(t, `trap '' TERM; sleep 600 & echo $!; while :; do sleep 1; done`, func(b []byte) {
		if n, err := strconv.Atoi(string(b)); err == nil {
			pidCh <- n
		}
	})
	child := <-pidCh
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for alive(child) {
		if time.Now().After(deadline) {
			t.Fatalf("the CLI's child %d survived the shutdown", child)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestADescendantHoldingThePipesDoesNotBlockExit(t *testing.T) {
	// setsid moves the descendant out of the group: only the drain bound
	// stops the readers from waiting for it.
	pidCh := make(chan int, 1)
	p := startSh(t, `setsid sleep 600 & echo $!`, func(b []byte) {
		if n, err := strconv.Atoi(string(b)); err == nil {
			pidCh <- n
		}
	})
	waitExited(t, p)
	_ = syscall.Kill(<-pidCh, syscall.SIGKILL)
	if !strings.HasPrefix(p.ExitError().Error(), "sh exited") {
		t.Fatalf("exit error %v", p.ExitError())
	}
}

func TestCancelledContextStillGetsTheGracefulStep(t *testing.T) {
	p := startSh(t, "read l; echo bye", nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.ExitError().Error(), "signal") {
		t.Fatalf("the CLI was killed instead of exiting after stdin closed: %v", p.ExitError())
	}
}
