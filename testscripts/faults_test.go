package testscripts

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// faultMarkerVar is the environment variable a faults script sets for one
// invocation only; every process that invocation started inherits it, so
// scanning /proc for its value finds whatever the invocation left behind.
const faultMarkerVar = "STRATOS_FAULT_MARKER"

// TestFaults runs testdata/faults: kill -9 and SIGINT at every phase of a
// build or run, bounded definition loads, the build lock's holder, --json
// usage errors, a bad settings file and a damaged SDK.
//
// Scripts get $FAULT_DIR (the script's work directory, for marker files
// written by install scripts and workflow modules) and the commands:
//
//	noprocs <marker>          waits until no process carries STRATOS_FAULT_MARKER=<marker>
//	signal <SIG> <pidfile>    sends INT, TERM or KILL to the process in pidfile
//	waitfile <path>           waits until path exists
//	waitgrep <path> <regexp>  waits until path exists and matches regexp
func TestFaults(t *testing.T) {
	p := params(t, "faults")
	base := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := base(env); err != nil {
			return err
		}
		env.Setenv("FAULT_DIR", env.WorkDir)
		env.Setenv("npm_config_prefer_offline", "true")
		if v := os.Getenv("NODE_EXTRA_CA_CERTS"); v != "" {
			env.Setenv("NODE_EXTRA_CA_CERTS", v)
		}
		return nil
	}
	p.Cmds = map[string]func(*testscript.TestScript, bool, []string){
		"noprocs":  cmdFaultNoProcs,
		"exitcode": cmdFaultExitCode,
		"signal":   cmdFaultSignal,
		"waitfile": cmdRunWaitFile,
		"waitgrep": cmdFaultWaitGrep,
	}
	testscript.Run(t, p)
}

// noprocs <marker>: waits (at most runPollLimit) until no live process
// carries STRATOS_FAULT_MARKER=<marker>, then fails listing the survivors.
func cmdFaultNoProcs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: noprocs <marker>")
	}
	want := []byte(faultMarkerVar + "=" + args[0])
	deadline := time.Now().Add(runPollLimit)
	for {
		survivors := markedProcesses(want)
		if len(survivors) == 0 {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("processes of the invocation marked %s survived %v:\n%s", args[0], runPollLimit, strings.Join(survivors, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// markedProcesses lists the live processes whose environment holds entry,
// as "pid command line".
func markedProcesses(entry []byte) []string {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, dir := range dirs {
		env, err := os.ReadFile(filepath.Join(dir, "environ"))
		if err != nil || !containsEntry(env, entry) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(dir))
		if !runProcessAlive(pid) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
		out = append(out, fmt.Sprintf("%d %s", pid, bytes.ReplaceAll(bytes.TrimRight(cmdline, "\x00"), []byte{0}, []byte{' '})))
	}
	return out
}

func containsEntry(environ, entry []byte) bool {
	for _, kv := range bytes.Split(environ, []byte{0}) {
		if bytes.Equal(kv, entry) {
			return true
		}
	}
	return false
}

// signal <INT|TERM|KILL> <pidfile>: signals the process whose PID the file holds.
func cmdFaultSignal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: signal <INT|TERM|KILL> <pidfile>")
	}
	sig, ok := map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM, "KILL": syscall.SIGKILL}[args[0]]
	if !ok {
		ts.Fatalf("signal: unknown signal %s", args[0])
	}
	pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[1])))
	ts.Check(err)
	ts.Check(syscall.Kill(pid, sig))
}

// exitcode <n> <program> [args...]: runs program and fails unless it exits
// with status n.
func cmdFaultExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode <n> <program> [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = exit.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}

// waitgrep <path> <regexp>: waits (at most runPollLimit) until the file
// exists and matches regexp.
func cmdFaultWaitGrep(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitgrep <path> <regexp>")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	p := ts.MkAbs(args[0])
	runPoll(ts, fmt.Sprintf("waiting for %s to match %s", p, args[1]), func() bool {
		data, err := os.ReadFile(p)
		return err == nil && re.Match(data)
	})
}
