package testscripts

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stratoscli/stratos/shared/procid"
	"github.com/stratoscli/stratos/shared/proctest"
)

// processPollBound bounds the waits for processes to appear or go: they
// wait for something to happen, they do not measure how long it takes.
const processPollBound = 60 * time.Second

// waitNoProcess waits until find returns nothing and fails describing
// what it still finds: a survivor's parent, group, session and command
// line tell which part of a process tree outlived its cleanup.
func waitNoProcess(ts *testscript.TestScript, what string, find func() []proctest.Process) {
	requireProc(ts)
	if left := proctest.WaitNone(processPollBound, find); len(left) != 0 {
		ts.Fatalf("%s still running after %s:\n%s", what, processPollBound, proctest.Describe(left))
	}
}

// waitSomeProcess waits until find returns something.
func waitSomeProcess(ts *testscript.TestScript, what string, find func() []proctest.Process) {
	requireProc(ts)
	deadline := time.Now().Add(processPollBound)
	for len(find()) == 0 {
		if time.Now().After(deadline) {
			ts.Fatalf("no %s after %s", what, processPollBound)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// requireProc fails a script that checks processes where they cannot be
// listed, rather than let it find none and pass.
func requireProc(ts *testscript.TestScript) {
	if err := proctest.Available(); err != nil {
		ts.Fatalf("%v", err)
	}
}

// cmdGone is a script command that waits until no process's environment
// holds key with this script's value (a CLI and every process it started
// inherit it), and fails naming the survivors.
func cmdGone(name, key string) func(*testscript.TestScript, bool, []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 0 {
			ts.Fatalf("usage: %s", name)
		}
		kv := key + "=" + ts.Getenv(key)
		waitNoProcess(ts, "processes with "+kv, func() []proctest.Process { return proctest.WithEnv(kv) })
	}
}

// cmdMine is a script command that waits until a process of this script
// (its environment holds key with this script's value) runs a command line
// containing its argument.
func cmdMine(name, key string) func(*testscript.TestScript, bool, []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: %s <text>", name)
		}
		kv, text := key+"="+ts.Getenv(key), args[0]
		waitSomeProcess(ts, fmt.Sprintf("process of this script running %q", text), func() []proctest.Process {
			return proctest.Find(func(p proctest.Process) bool { return p.HasEnv(kv) && strings.Contains(p.CommandLine(), text) })
		})
	}
}

// cmdNoProc is a script command that waits until no process started
// since this test binary runs a command line containing its argument. It
// looks beyond this script's processes (the check by environment is
// cmdGone's), but a leftover of an earlier test run with the same command
// text does not count.
func cmdNoProc(name string) func(*testscript.TestScript, bool, []string) {
	return cmdCommandLine(name, waitNoProcess)
}

// cmdProc is a script command that waits until a process started since
// this test binary runs a command line containing its argument.
func cmdProc(name string) func(*testscript.TestScript, bool, []string) {
	return cmdCommandLine(name, waitSomeProcess)
}

// cmdCommandLine is a script command that waits, with wait, on the
// processes started since this test binary whose command line contains its
// argument.
func cmdCommandLine(name string, wait func(*testscript.TestScript, string, func() []proctest.Process)) func(*testscript.TestScript, bool, []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: %s <text>", name)
		}
		wait(ts, fmt.Sprintf("process whose command line holds %q", args[0]), recentWithCommandLine(ts, args[0]))
	}
}

// recentWithCommandLine returns a finder of the processes started since
// this test binary whose command line contains text.
func recentWithCommandLine(ts *testscript.TestScript, text string) func() []proctest.Process {
	self, err := procid.Of(os.Getpid())
	if err != nil {
		ts.Fatalf("this test's start time: %v", err)
	}
	return func() []proctest.Process {
		return proctest.Find(func(p proctest.Process) bool {
			if !strings.Contains(p.CommandLine(), text) {
				return false
			}
			id, err := procid.Of(p.PID)
			return err == nil && id.StartTime >= self.StartTime
		})
	}
}

// cmdKillMine is a script command that sends SIGKILL to the one process of
// this script (its environment holds key with this script's value) whose
// command line contains its argument: a crash of that part of a run, which
// runs no cleanup. It refuses when none or several match, so the text must
// name one process (a harness CLI by its --model, the agent host by
// "stratos-agent serve").
func cmdKillMine(name, key string) func(*testscript.TestScript, bool, []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: %s <text>", name)
		}
		requireProc(ts)
		kv, text := key+"="+ts.Getenv(key), args[0]
		found := proctest.Find(func(p proctest.Process) bool { return p.HasEnv(kv) && strings.Contains(p.CommandLine(), text) })
		if len(found) != 1 {
			ts.Fatalf("%s: want one process of this script running %q, found %d:\n%s", name, text, len(found), proctest.Describe(found))
		}
		ts.Check(syscall.Kill(found[0].PID, syscall.SIGKILL))
	}
}
