package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// startSleeper starts a sleep whose argument and environment are unique to
// the test, and returns it with its argument and environment entry.
func startSleeper(t *testing.T) (*exec.Cmd, string, string) {
	t.Helper()
	if err := Available(); err != nil {
		t.Fatal(err)
	}
	arg := fmt.Sprintf("%d.%d", 1000+os.Getpid()%1000, time.Now().UnixNano()%1000)
	kv := "PROCTEST_MARK=" + arg
	cmd := exec.Command("sleep", arg)
	cmd.Env = append(os.Environ(), kv)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if !WaitEnv(cmd.Process.Pid, kv, time.Minute) {
		t.Fatalf("the sleep (pid %d) never showed %s in /proc", cmd.Process.Pid, kv)
	}
	return cmd, arg, kv
}

func TestFindsAProcessByCommandLineAndEnvironment(t *testing.T) {
	cmd, arg, kv := startSleeper(t)
	want := []Process{{PID: cmd.Process.Pid}}
	if got := WithCommandLine("sleep " + arg); !slices.Equal(got, want) {
		t.Errorf("WithCommandLine = %v, want %v", got, want)
	}
	if got := WithEnv(kv); !slices.Equal(got, want) {
		t.Errorf("WithEnv = %v, want %v", got, want)
	}
	if got := WithEnv(kv + "x"); len(got) != 0 {
		t.Errorf("WithEnv of another value = %v, want none", got)
	}
	s := want[0].String()
	for _, part := range []string{fmt.Sprintf("pid %d ", cmd.Process.Pid), fmt.Sprintf("ppid %d,", os.Getpid()), ": sleep " + arg} {
		if !strings.Contains(s, part) {
			t.Errorf("String() = %q, want it to contain %q", s, part)
		}
	}
}

// A process that exited but is not reaped yet is gone for a test: the
// zombie holds nothing any more.
func TestAZombieCountsAsGone(t *testing.T) {
	cmd, _, kv := startSleeper(t)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	// Not waited for: the sleeper stays a zombie until the cleanup reaps it.
	if left := WaitNone(time.Minute, func() []Process { return WithEnv(kv) }); len(left) != 0 {
		t.Fatalf("a killed, unreaped process is still found:\n%s", Describe(left))
	}
	if s := (Process{PID: cmd.Process.Pid}).String(); !strings.Contains(s, "state Z") {
		t.Errorf("String() of the zombie = %q, want its state Z", s)
	}
}

func TestWaitNoneReturnsTheSurvivors(t *testing.T) {
	cmd, _, kv := startSleeper(t)
	left := WaitNone(100*time.Millisecond, func() []Process { return WithEnv(kv) })
	if !slices.Equal(left, []Process{{PID: cmd.Process.Pid}}) {
		t.Errorf("WaitNone = %v, want the running sleeper", left)
	}
	if d := Describe(left); !strings.HasPrefix(d, "\tpid ") || !strings.HasSuffix(d, "\n") {
		t.Errorf("Describe = %q, want one tab-indented line", d)
	}
}
