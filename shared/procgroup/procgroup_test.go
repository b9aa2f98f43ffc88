//go:build linux

package procgroup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary act as a parent that starts a child with
// procgroup and then waits to be killed (see TestMain).
const helperEnv = "PROCGROUP_TEST_PARENT"

func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		os.Exit(parentHelper(spec))
	}
	os.Exit(m.Run())
}

// parentHelper starts `sh -c script` (watchdog on or off) and blocks until
// it is killed.
func parentHelper(spec string) int {
	watchdog, script, _ := strings.Cut(spec, ":")
	p, err := Start(exec.Command("sh", "-c", script), Options{Watchdog: watchdog == "watchdog"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	_ = p.Wait()
	select {}
}

func TestOwnGroupAndExitStatus(t *testing.T) {
	for _, watchdog := range []bool{false, true} {
		t.Run(fmt.Sprintf("watchdog=%v", watchdog), func(t *testing.T) {
			cmd := exec.Command("sh", "-c", `ps -o pgid= -p $$ >&3; exit 7`)
			r, w, _ := os.Pipe()
			cmd.ExtraFiles = []*os.File{w}
			p, err := Start(cmd, Options{Watchdog: watchdog})
			w.Close()
			if err != nil {
				t.Fatal(err)
			}
			var exit *exec.ExitError
			if err := p.Wait(); !errors.As(err, &exit) || exit.ExitCode() != 7 {
				t.Errorf("Wait = %v, want exit status 7", err)
			}
			out := make([]byte, 64)
			n, _ := r.Read(out)
			if pgid, _ := strconv.Atoi(strings.TrimSpace(string(out[:n]))); pgid != p.Pid() {
				t.Errorf("child's group = %d, want its own (%d)", pgid, p.Pid())
			}
		})
	}
}

func TestWatchdogKeepsStdin(t *testing.T) {
	cmd := exec.Command("cat")
	cmd.Stdin = strings.NewReader("through the watchdog\n")
	out, err := Output(cmd, Options{Watchdog: true})
	if err != nil || string(out) != "through the watchdog\n" {
		t.Errorf("Output = %q, %v", out, err)
	}
}

// TestWatchdogBesideTheChild: the watchdog is not a process the child
// starts before its command runs (the command starts at once), and once
// Wait returns it has been reaped: no zombie is left behind.
func TestWatchdogBesideTheChild(t *testing.T) {
	out, err := Output(exec.Command("sh", "-c", `pgrep -P $$ || true`), Options{Watchdog: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(strings.TrimSpace(string(out))) != 0 {
		t.Errorf("the child has children %q, want none (the watchdog runs beside it)", out)
	}
	var status syscall.WaitStatus
	if pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil); pid > 0 {
		t.Errorf("process %d was left unreaped (%v)", pid, err)
	}
}

func TestLeftoversDieWithTheChild(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	if err := Run(exec.Command("sh", "-c", fmt.Sprintf(`sleep 1000 & echo $! > %s`, pidFile)), Options{}); err != nil {
		t.Fatal(err)
	}
	waitDead(t, readPid(t, pidFile))
}

func TestCancelKillsTheGroup(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", fmt.Sprintf(`trap '' TERM; sleep 1000 & echo $! > %s/gc.tmp; mv %[1]s/gc.tmp %[1]s/gc; wait`, dir))
	p, err := Start(cmd, Options{})
	if err != nil {
		t.Fatal(err)
	}
	grandchild := awaitPid(t, filepath.Join(dir, "gc"))
	cancel()
	if err := p.Wait(); err == nil {
		t.Error("Wait after cancel = nil, want an error")
	}
	waitDead(t, p.Pid())
	waitDead(t, grandchild)
}

// TestParentDeath kills a parent by SIGKILL: the parent-death signal takes
// the child, and only the watchdog takes the grandchild.
func TestParentDeath(t *testing.T) {
	dir := t.TempDir()
	script := fmt.Sprintf(`sleep 1000 & echo $! > %[1]s/gc.tmp; echo $$ > %[1]s/c.tmp; mv %[1]s/gc.tmp %[1]s/gc; mv %[1]s/c.tmp %[1]s/c; wait`, dir)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(self)
	parent.Env = append(os.Environ(), helperEnv+"=watchdog:"+script)
	parent.Stderr = os.Stderr
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	grandchild := awaitPid(t, filepath.Join(dir, "gc"))
	child := awaitPid(t, filepath.Join(dir, "c"))
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	waitDead(t, child)
	waitDead(t, grandchild)
}

func TestOutputBoundsWhatItKeeps(t *testing.T) {
	out, err := Output(exec.Command("head", "-c", strconv.Itoa(maxOutput+10), "/dev/zero"), Options{})
	if err != nil || len(out) != maxOutput {
		t.Errorf("Output kept %d bytes (%v), want %d", len(out), err, maxOutput)
	}
}

func awaitPid(t *testing.T, file string) int {
	t.Helper()
	waitFor(t, func() bool { _, err := os.Stat(file); return err == nil })
	return readPid(t, file)
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func waitDead(t *testing.T, pid int) {
	t.Helper()
	waitFor(t, func() bool { return !alive(pid) })
	if alive(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// alive reports whether pid runs (a zombie has exited).
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// waitFor polls cond for at most a minute: a bound for a broken test, never
// a timing assertion.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Error("condition not met within a minute")
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
