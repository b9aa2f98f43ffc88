// Package proctest finds this machine's processes through Linux's /proc,
// for tests that check what a command started and what it left running.
// A zombie (exited, waiting only for its parent, or init, to reap it)
// counts as gone: it runs nothing and holds nothing any more.
package proctest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

const procRoot = "/proc"

// Process is a process that was running when it was found.
type Process struct {
	PID int
}

// Available returns why processes cannot be listed on this machine (no
// /proc: not Linux), or nil. A test that relies on them should fail with
// it rather than find nothing and pass.
func Available() error {
	if _, err := os.Stat(filepath.Join(procRoot, "self", "stat")); err != nil {
		return fmt.Errorf("listing processes needs %s (Linux): %w", procRoot, err)
	}
	return nil
}

// Find lists the running processes, zombies excepted, for which match
// holds, in pid order.
func Find(match func(Process) bool) []Process {
	entries, _ := os.ReadDir(procRoot)
	var out []Process
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p := (Process{PID: pid}); match(p) && p.Running() {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b Process) int { return a.PID - b.PID })
	return out
}

// WithCommandLine lists the running processes whose command line
// (arguments joined by spaces) contains text.
func WithCommandLine(text string) []Process {
	return Find(func(p Process) bool { return strings.Contains(p.CommandLine(), text) })
}

// WithEnv lists the running processes whose environment holds kv
// ("KEY=value"): a process given it and every process it started, unless
// one of them dropped it.
func WithEnv(kv string) []Process {
	return Find(func(p Process) bool { return p.HasEnv(kv) })
}

// WaitEnv waits until /proc shows process pid with kv in its environment,
// or bound has passed, and says which. A test that starts a process and
// then looks for it needs it: exec.Cmd.Start returns once the child has
// let go of its parent's memory, which is before the kernel has written
// the new program's arguments and environment, and /proc shows them empty
// until it has.
func WaitEnv(pid int, kv string, bound time.Duration) bool {
	deadline := time.Now().Add(bound)
	for p := (Process{PID: pid}); !p.HasEnv(kv); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// WaitNone polls find until it returns nothing or bound has passed, and
// returns what its last poll found (nil once nothing is left). The bound
// only stops a wait for something that should happen; it measures nothing.
func WaitNone(bound time.Duration, find func() []Process) []Process {
	deadline := time.Now().Add(bound)
	for {
		left := find()
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Describe says what the processes are, one tab-indented line each (see
// Process.String).
func Describe(ps []Process) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "\t%s\n", p)
	}
	return b.String()
}

// String names the process with its state, parent, group, session and
// command line: for a survivor, they tell which part of a process tree
// outlived its cleanup.
func (p Process) String() string {
	return fmt.Sprintf("pid %d %s: %s", p.PID, p.describeStat(), p.CommandLine())
}

// Argv is the process's arguments; nil when they cannot be read (it has
// exited, or it is not this user's).
func (p Process) Argv() []string {
	b, err := p.read("cmdline")
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// CommandLine is the process's arguments joined by spaces; "" when they
// cannot be read.
func (p Process) CommandLine() string { return strings.Join(p.Argv(), " ") }

// Environ is the environment the process started with ("KEY=value"
// entries).
func (p Process) Environ() ([]string, error) {
	b, err := p.read("environ")
	if err != nil || len(b) == 0 {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00"), nil
}

// HasEnv reports whether the process's environment holds kv
// ("KEY=value").
func (p Process) HasEnv(kv string) bool {
	env, err := p.Environ()
	return err == nil && slices.Contains(env, kv)
}

// WorkingDir is the process's current directory.
func (p Process) WorkingDir() (string, error) {
	return os.Readlink(filepath.Join(procRoot, strconv.Itoa(p.PID), "cwd"))
}

func (p Process) read(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(procRoot, strconv.Itoa(p.PID), name))
}

// statFields returns the fields of /proc/<pid>/stat after the command
// name, which is in parentheses and may itself hold spaces and
// parentheses, so the fields are counted from the last ')': state, parent,
// group, session, ...
func (p Process) statFields() []string {
	b, err := p.read("stat")
	if err != nil {
		return nil
	}
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
}

// Running reports whether the process still runs: it exists and is not a
// zombie.
func (p Process) Running() bool {
	f := p.statFields()
	return len(f) > 0 && f[0] != "Z"
}

func (p Process) describeStat() string {
	f := p.statFields()
	if len(f) < 4 {
		return "(gone)"
	}
	return fmt.Sprintf("(state %s, ppid %s, pgid %s, sid %s)", f[0], f[1], f[2], f[3])
}
