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

// helperOptions are the options parentHelper starts its child with, by
// the name the test gives.
var helperOptions = map[string]Options{
	"plain":    {},
	"watchdog": {Watchdog: true},
	"patient":  {DeathSignal: syscall.SIGTERM, WatchdogPatience: 2 * time.Second},
}

// parentHelper starts `sh -c script` with the named options and blocks
// until it is killed.
func parentHelper(spec string) int {
	name, script, _ := strings.Cut(spec, ":")
	p, err := Start(exec.Command("sh", "-c", script), helperOptions[name])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	_ = p.Wait()
	select {}
}

func TestOwnGroupAndExitStatus(t *testing.T) {
	for _, name := range []string{"plain", "watchdog", "patient"} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", `ps -o pgid= -p $$ >&3; exit 7`)
			r, w, _ := os.Pipe()
			cmd.ExtraFiles = []*os.File{w}
			p, err := Start(cmd, helperOptions[name])
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
			pgid, _ := strconv.Atoi(strings.TrimSpace(string(out[:n])))
			switch {
			case name != "patient" && pgid != p.Pid():
				t.Errorf("child's group = %d, want its own (%d)", pgid, p.Pid())
			case name == "patient" && (pgid == p.Pid() || pgid == os.Getpid()):
				t.Errorf("child's group = %d, want its watchdog's (child %d, test %d)", pgid, p.Pid(), os.Getpid())
			}
			if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("the child's group %d after Wait: %v, want no process left", pgid, err)
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

// TestFailedStartLeavesNoWatchdog: when the child cannot start, the
// watchdog that was started first for it is gone and reaped too.
func TestFailedStartLeavesNoWatchdog(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	if _, err := Start(exec.Command(missing), helperOptions["patient"]); err == nil {
		t.Fatalf("Start(%s) = nil error, want one", missing)
	}
	var status syscall.WaitStatus
	if pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil); pid != -1 || !errors.Is(err, syscall.ECHILD) {
		t.Errorf("Wait4 after the failed start = %d, %v; want no child left (ECHILD)", pid, err)
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
	for _, name := range []string{"plain", "patient"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cmd := exec.CommandContext(ctx, "sh", "-c", fmt.Sprintf(`trap '' TERM; sleep 1000 & echo $! > %s/gc.tmp; mv %[1]s/gc.tmp %[1]s/gc; wait`, dir))
			p, err := Start(cmd, helperOptions[name])
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
		})
	}
}

// TestParentDeath kills a parent by SIGKILL: the parent-death signal takes
// the child, and only the watchdog takes the grandchild.
func TestParentDeath(t *testing.T) {
	dir := t.TempDir()
	script := fmt.Sprintf(`sleep 1000 & echo $! > %[1]s/gc.tmp; echo $$ > %[1]s/c.tmp; mv %[1]s/gc.tmp %[1]s/gc; mv %[1]s/c.tmp %[1]s/c; wait`, dir)
	killParent(t, "watchdog", script, filepath.Join(dir, "c"))
	waitDead(t, awaitPid(t, filepath.Join(dir, "c")))
	waitDead(t, awaitPid(t, filepath.Join(dir, "gc")))
}

// TestPatientWatchdogLeavesTheChildItsStop: after the parent's death the
// child gets the parent-death signal once, nothing more while it takes a
// second to stop its own descendant (which runs in a session of its own,
// out of the group's reach, as a harness CLI's tools do), and what it
// leaves in its group dies once it has exited.
func TestPatientWatchdogLeavesTheChildItsStop(t *testing.T) {
	dir := t.TempDir()
	script := fmt.Sprintf(`setsid sleep 1000 & tool=$!
sleep 1000 & echo $! > %[1]s/left.tmp
trap 'echo TERM >> %[1]s/signals' TERM
echo $tool > %[1]s/tool.tmp; mv %[1]s/left.tmp %[1]s/left; mv %[1]s/tool.tmp %[1]s/tool
while [ ! -s %[1]s/signals ]; do sleep 1 & wait $!; done
sleep 1 & wait $!
kill $tool`, dir)
	killParent(t, "patient", script, filepath.Join(dir, "tool"))
	waitDead(t, awaitPid(t, filepath.Join(dir, "tool")))
	waitDead(t, awaitPid(t, filepath.Join(dir, "left")))
	if b, err := os.ReadFile(filepath.Join(dir, "signals")); err != nil || string(b) != "TERM\n" {
		t.Errorf("the child got the signals %q (%v), want one TERM", b, err)
	}
}

// TestPatientWatchdogKillsWhatTheChildLeaves: a child that exits at the
// parent-death signal without stopping its descendant (a tool in a session
// of its own, with a child of its own, as OpenCode leaves them) does not
// leave them running.
func TestPatientWatchdogKillsWhatTheChildLeaves(t *testing.T) {
	dir := t.TempDir()
	script := fmt.Sprintf(`setsid sh -c 'sleep 1000 & echo $! > %[1]s/sub.tmp; mv %[1]s/sub.tmp %[1]s/sub; wait' & tool=$!
trap 'exit 0' TERM
while [ ! -e %[1]s/sub ]; do sleep 1; done
echo $tool > %[1]s/tool.tmp; mv %[1]s/tool.tmp %[1]s/tool
while :; do sleep 1 & wait $!; done`, dir)
	killParent(t, "patient", script, filepath.Join(dir, "tool"))
	waitDead(t, awaitPid(t, filepath.Join(dir, "tool")))
	waitDead(t, awaitPid(t, filepath.Join(dir, "sub")))
}

// TestPatientWatchdogKillsAStuckChild: a child that does not stop on the
// parent-death signal is killed when the patience has run out.
func TestPatientWatchdogKillsAStuckChild(t *testing.T) {
	dir := t.TempDir()
	script := fmt.Sprintf(`trap 'echo TERM >> %[1]s/signals' TERM
echo $$ > %[1]s/c.tmp; mv %[1]s/c.tmp %[1]s/c
while :; do sleep 1; done`, dir)
	killParent(t, "patient", script, filepath.Join(dir, "c"))
	child := awaitPid(t, filepath.Join(dir, "c"))
	waitFor(t, func() bool { _, err := os.Stat(filepath.Join(dir, "signals")); return err == nil })
	waitDead(t, child)
}

// killParent starts a parent (this test binary, see TestMain) that starts
// `sh -c script` with the named helperOptions, and kills the parent with
// SIGKILL once the script has written ready, its last file.
func killParent(t *testing.T, options, script, ready string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(self)
	parent.Env = append(os.Environ(), helperEnv+"="+options+":"+script)
	parent.Stderr = os.Stderr
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { _, err := os.Stat(ready); return err == nil })
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
}

func TestOutputBoundsWhatItKeeps(t *testing.T) {
	out, err := Output(exec.Command("head", "-c", strconv.Itoa(maxOutput+10), "/dev/zero"), Options{})
	if err != nil || len(out) != maxOutput {
		t.Errorf("Output kept %d bytes (%v), want %d", len(out), err, maxOutput)
	}
}

func awaitPid(t testing.TB, file string) int {
	t.Helper()
	waitFor(t, func() bool { _, err := os.Stat(file); return err == nil })
	return readPid(t, file)
}

func readPid(t testing.TB, file string) int {
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
func waitFor(t testing.TB, cond func() bool) {
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
