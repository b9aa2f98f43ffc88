package testscripts

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stratoscli/stratos/shared/proctest"
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

// noprocs <marker>: waits until no process carries
// STRATOS_FAULT_MARKER=<marker>, then fails describing the survivors.
func cmdFaultNoProcs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: noprocs <marker>")
	}
	kv := faultMarkerVar + "=" + args[0]
	waitNoProcess(ts, "processes of the invocation marked "+args[0], func() []proctest.Process { return proctest.WithEnv(kv) })
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
