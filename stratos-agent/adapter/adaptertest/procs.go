package adaptertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pollBound bounds the waits for asynchronous progress of a CLI. The
// cases wait for something to happen; they never measure how long it took.
const pollBound = 2 * time.Minute

// processesWith lists the pids whose command line contains s.
func processesWith(t *testing.T, s string) []string {
	t.Helper()
	return scanProc(t, "cmdline", func(b []byte) bool {
		return strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), s)
	})
}

// processesWithEnv lists the pids whose environment holds kv.
func processesWithEnv(t *testing.T, kv string) []string {
	t.Helper()
	return scanProc(t, "environ", func(b []byte) bool {
		for _, v := range strings.Split(string(b), "\x00") {
			if v == kv {
				return true
			}
		}
		return false
	})
}

func scanProc(t *testing.T, file string, match func([]byte) bool) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("no /proc (%v): the suite checks for leftover processes through it and runs on Linux", err)
	}
	var pids []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), file))
		if err == nil && match(b) && !zombie(e.Name()) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// zombie reports a process that exited and waits only to be reaped.
func zombie(pid string) bool {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return true
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) == 0 || fields[0] == "Z"
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

// waitGone polls until list returns nothing; it fails naming survivors.
func waitGone(t *testing.T, what string, list func() []string) {
	t.Helper()
	deadline := time.Now().Add(pollBound)
	for {
		pids := list()
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still running: pids %v", what, pids)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
