package adaptertest

import (
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/proctest"
)

// pollBound bounds the waits for asynchronous progress of a CLI. The
// cases wait for something to happen; they never measure how long it took.
const pollBound = 2 * time.Minute

// processesOf lists the running processes of l: the shell that runs it
// (its command line holds the marker) and everything the command started
// (their environment does).
func processesOf(t *testing.T, l longRun) []proctest.Process {
	t.Helper()
	requireProc(t)
	return proctest.Find(func(p proctest.Process) bool {
		return strings.Contains(p.CommandLine(), l.marker) || p.HasEnv(l.marker)
	})
}

// processesWithEnv lists the processes whose environment holds kv.
func processesWithEnv(t *testing.T, kv string) []proctest.Process {
	t.Helper()
	requireProc(t)
	return proctest.WithEnv(kv)
}

// requireProc fails a case that checks for leftover processes where they
// cannot be listed, rather than let it find none and pass.
func requireProc(t *testing.T) {
	t.Helper()
	if err := proctest.Available(); err != nil {
		t.Fatalf("the suite checks for leftover processes and runs on Linux: %v", err)
	}
}

// waitFor polls cond until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(pollBound)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitGone polls until find returns nothing; it fails describing the
// survivors.
func waitGone(t *testing.T, what string, find func() []proctest.Process) {
	t.Helper()
	if left := proctest.WaitNone(pollBound, find); len(left) != 0 {
		t.Fatalf("%s still running after %s:\n%s", what, pollBound, proctest.Describe(left))
	}
}
