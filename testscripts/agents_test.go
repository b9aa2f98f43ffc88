package testscripts

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stratoscli/stratos/shared/proctest"
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
	waitNoProcess(ts, "stratos-agent serve with HOME="+home, func() []proctest.Process { return agentHosts(home) })
}

// agentHosts lists the processes running `stratos-agent serve` with the
// given HOME (so other scripts' hosts do not count).
func agentHosts(home string) []proctest.Process {
	return proctest.Find(func(p proctest.Process) bool {
		argv := p.Argv()
		return len(argv) >= 2 && filepath.Base(argv[0]) == "stratos-agent" && argv[1] == "serve" && p.HasEnv("HOME="+home)
	})
}
