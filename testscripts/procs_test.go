package testscripts

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// processPollBound bounds the waits for processes to appear or go: they
// wait for something to happen, they do not measure how long it takes.
const processPollBound = 60 * time.Second

// processesRunning lists the pids whose command line contains text.
func processesRunning(text string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		if strings.Contains(commandLine(e.Name()), text) {
			out = append(out, e.Name())
		}
	}
	return out
}

// processesWithEnv lists the pids whose environment holds kv: a CLI and
// every process it started (they inherit it).
func processesWithEnv(kv string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, v := range strings.Split(string(b), "\x00") {
			if v == kv {
				out = append(out, e.Name())
				break
			}
		}
	}
	return out
}

// waitNoProcessWithEnv waits until no process's environment holds kv and
// fails describing the survivors.
func waitNoProcessWithEnv(ts *testscript.TestScript, kv string) {
	deadline := time.Now().Add(processPollBound)
	var pids []string
	for time.Now().Before(deadline) {
		if pids = processesWithEnv(kv); len(pids) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Fatalf("processes with %s still running after %s:\n%s", kv, processPollBound, describeProcesses(pids))
}

// describeProcesses says, one line each, what the pids are: a survivor's
// parent, group, session and command line tell which part of a process
// tree outlived its cleanup.
func describeProcesses(pids []string) string {
	var b strings.Builder
	for _, pid := range pids {
		fmt.Fprintf(&b, "\tpid %s %s: %s\n", pid, processStat(pid), commandLine(pid))
	}
	return b.String()
}

// processStat reads state, parent, group and session from /proc/pid/stat;
// the command name in parentheses may itself hold spaces and parentheses,
// so the fields are counted from the last ')'.
func processStat(pid string) string {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return "(gone)"
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 4 {
		return "(unreadable stat)"
	}
	return fmt.Sprintf("(state %s, ppid %s, pgid %s, sid %s)", f[0], f[1], f[2], f[3])
}

// commandLine is pid's command line with spaces between its arguments, ""
// when it cannot be read.
func commandLine(pid string) string {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "cmdline"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}

// cmdGone is a script command that waits until no process's environment
// holds key with this script's value, and fails naming the survivors.
func cmdGone(name, key string) func(*testscript.TestScript, bool, []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 0 {
			ts.Fatalf("usage: %s", name)
		}
		waitNoProcessWithEnv(ts, key+"="+ts.Getenv(key))
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
		kv := key + "=" + ts.Getenv(key)
		deadline := time.Now().Add(processPollBound)
		for time.Now().Before(deadline) {
			for _, pid := range processesWithEnv(kv) {
				if strings.Contains(commandLine(pid), args[0]) {
					return
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
		ts.Fatalf("no process of this script runs %q after %s", args[0], processPollBound)
	}
}
