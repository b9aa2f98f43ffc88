package testscripts

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stratoscli/stratos/shared/proctest"
)

// TestRun runs testdata/run: stratos run end to end. Besides lastrun,
// jsonget, waitfile, pidgone and copydir (each described at its function),
// scripts have:
//
//	exitcode <n> <program> [args...]  runs program and fails unless it exits with n
//	signal <SIG> <pidfile>            sends INT, TERM or KILL to the process in pidfile
//	holdfifo <path>                   opens the FIFO at path for writing, which returns once
//	                                  a reader has opened it, and keeps it open, unwritten,
//	                                  until the script ends
func TestRun(t *testing.T) {
	p := params(t, "run")
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := setup(env); err != nil {
			return err
		}
		examples, err := filepath.Abs(filepath.Join("..", "examples"))
		if err != nil {
			return err
		}
		env.Setenv("EXAMPLES", examples)
		// Workflow-level npm installs (the examples' zod) come from the warm
		// cache without asking the registry for fresh metadata first; a CA
		// bundle the machine needs for the registry still applies.
		env.Setenv("npm_config_prefer_offline", "true")
		if v := os.Getenv("NODE_EXTRA_CA_CERTS"); v != "" {
			env.Setenv("NODE_EXTRA_CA_CERTS", v)
		}
		return nil
	}
	p.Cmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"lastrun":  cmdRunLastRun,
		"jsonget":  cmdRunJSONGet,
		"waitfile": cmdRunWaitFile,
		"pidgone":  cmdRunPidGone,
		"copydir":  cmdRunCopyDir,
		"exitcode": cmdFaultExitCode,
		"signal":   cmdFaultSignal,
		"holdfifo": cmdRunHoldFIFO,
	}
	testscript.Run(t, p)
}

// runPollLimit bounds every wait of these commands: generous, since a loaded
// machine can be slow, but finite, so that a broken run fails the test
// instead of hanging it. Reaching it is a failure, never a pass.
const runPollLimit = 60 * time.Second

// lastrun: sets $RUN to the directory of the most recently started run
// under $HOME/.stratos/runs and $RUNID to its execution ID.
func cmdRunLastRun(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: lastrun")
	}
	runs := filepath.Join(ts.Getenv("HOME"), ".stratos", "runs")
	entries, err := os.ReadDir(runs)
	ts.Check(err)
	var latest string
	var latestAt time.Time
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue // the listing cache, a record being pruned
		}
		var inv struct {
			StartedAt time.Time `json:"startedAt"`
		}
		data, err := os.ReadFile(filepath.Join(runs, e.Name(), "invocation.json"))
		ts.Check(err)
		ts.Check(json.Unmarshal(data, &inv))
		if latest == "" || inv.StartedAt.After(latestAt) {
			latest, latestAt = e.Name(), inv.StartedAt
		}
	}
	if latest == "" {
		ts.Fatalf("no run records in %s", runs)
	}
	ts.Setenv("RUN", filepath.Join(runs, latest))
	ts.Setenv("RUNID", latest)
}

// jsonget <file> <dotted.path> <json>: the value at path in the JSON
// document in file equals json (compared as data, so key order and spacing
// do not matter). Path segments that are numbers index arrays.
func cmdRunJSONGet(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: jsonget <file> <path> <json>")
	}
	var doc, want any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc))
	if err := json.Unmarshal([]byte(args[2]), &want); err != nil {
		ts.Fatalf("expected value %s: %v", args[2], err)
	}
	got := doc
	for _, seg := range strings.Split(args[1], ".") {
		switch v := got.(type) {
		case map[string]any:
			var ok bool
			if got, ok = v[seg]; !ok {
				ts.Fatalf("%s: no field %q on the way to %s", args[0], seg, args[1])
			}
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				ts.Fatalf("%s: no element %q on the way to %s", args[0], seg, args[1])
			}
			got = v[i]
		default:
			ts.Fatalf("%s: %s is not reachable (%v is not an object or array)", args[0], args[1], v)
		}
	}
	equal := reflect.DeepEqual(got, want)
	if equal == neg {
		text, _ := json.Marshal(got)
		ts.Fatalf("%s: %s = %s, want %s%s", args[0], args[1], text, map[bool]string{true: "anything but ", false: ""}[neg], args[2])
	}
}

// holdfifo <path>: opens the FIFO at path for writing — which returns once
// a reader has it open — and keeps it open without writing until the
// script ends, failing after runPollLimit without a reader.
func cmdRunHoldFIFO(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: holdfifo <path>")
	}
	path := ts.MkAbs(args[0])
	opened := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			f = nil
		}
		opened <- f
	}()
	select {
	case f := <-opened:
		if f == nil {
			ts.Fatalf("holdfifo: cannot open %s for writing", path)
		}
		ts.Defer(func() { f.Close() })
	case <-time.After(runPollLimit):
		ts.Fatalf("holdfifo: nobody opened %s for reading within %v", path, runPollLimit)
	}
}

// waitfile <path>: waits until path exists (a marker a running workflow
// writes), failing after runPollLimit.
func cmdRunWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile <path>")
	}
	p := ts.MkAbs(args[0])
	runPoll(ts, "waiting for "+p, func() bool {
		_, err := os.Stat(p)
		return err == nil
	})
}

// pidgone <pidfile>: waits until the process whose PID the file holds no
// longer runs (gone, or a zombie nobody reaped yet), failing after runPollLimit.
func cmdRunPidGone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pidgone <pidfile>")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[0])))
	ts.Check(err)
	requireProc(ts)
	runPoll(ts, fmt.Sprintf("process %d (from %s) still runs", pid, args[0]), func() bool { return !(proctest.Process{PID: pid}).Running() })
}

func runPoll(ts *testscript.TestScript, what string, done func() bool) {
	deadline := time.Now().Add(runPollLimit)
	for !done() {
		if time.Now().After(deadline) {
			ts.Fatalf("%s after %v", what, runPollLimit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// copydir <src> <dst>: copies the files git tracks under src, as a fresh
// clone has them: nothing that builds, installs or work in progress added.
func cmdRunCopyDir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: copydir <src> <dst>")
	}
	src, dst := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	out, err := exec.Command("git", "-C", src, "ls-files", "-z", "--", ".").Output()
	ts.Check(err)
	files := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(files) == 0 || files[0] == "" {
		ts.Fatalf("git tracks no files under %s", src)
	}
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(src, rel))
		ts.Check(err)
		target := filepath.Join(dst, rel)
		ts.Check(os.MkdirAll(filepath.Dir(target), 0o755))
		ts.Check(os.WriteFile(target, data, 0o644))
	}
}
