package testscripts

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestAgents runs testdata/agents: workflows with agents on the test
// harness, run with the real stratos run, node, SDK and agent host.
//
// Script commands:
//
//	agents-waitfile <glob> <text>  wait until a file matching glob contains text
//	agents-serving                 check that a `stratos-agent serve` of this
//	                               script ($HOME) runs now
//	agents-noserve                 wait until none runs; fail if one survives
//
// Both poll with a generous bound: they wait for something to happen, they
// do not measure how long it takes.
func TestAgents(t *testing.T) {
	p := params(t, "agents")
	p.Cmds = map[string]func(*testscript.TestScript, bool, []string){
		"agents-waitfile": cmdWaitFile,
		"agents-serving":  cmdServing,
		"agents-noserve":  cmdNoServe,
	}
	testscript.Run(t, p)
}

const pollBound = 60 * time.Second

func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: agents-waitfile <glob> <text>")
	}
	glob := ts.MkAbs(args[0])
	deadline := time.Now().Add(pollBound)
	for time.Now().Before(deadline) {
		matches, _ := filepath.Glob(glob)
		for _, m := range matches {
			if b, err := os.ReadFile(m); err == nil && bytes.Contains(b, []byte(args[1])) {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("no file matching %s contains %q after %s", glob, args[1], pollBound)
}

func cmdServing(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: agents-serving")
	}
	if len(agentHosts(ts.Getenv("HOME"))) == 0 {
		ts.Fatalf("no stratos-agent serve runs with HOME=%s", ts.Getenv("HOME"))
	}
}

func cmdNoServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: agents-noserve")
	}
	home := ts.Getenv("HOME")
	deadline := time.Now().Add(pollBound)
	var pids []int
	for time.Now().Before(deadline) {
		if pids = agentHosts(home); len(pids) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("stratos-agent serve still running after %s: pids %v", pollBound, pids)
}

// agentHosts lists the processes running `stratos-agent serve` with the
// given HOME (so other scripts' hosts do not count).
func agentHosts(home string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		argv := strings.Split(string(cmdline), "\x00")
		if len(argv) < 2 || filepath.Base(argv[0]) != "stratos-agent" || argv[1] != "serve" {
			continue
		}
		environ, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, kv := range strings.Split(string(environ), "\x00") {
			if kv == "HOME="+home {
				out = append(out, pid)
			}
		}
	}
	return out
}
