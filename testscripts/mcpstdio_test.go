package testscripts

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// stdioBound bounds each step of an mcpstdio script (a run_workflow may
// build first) and the server's exit: a broken server fails the script, it
// does not hang it.
const stdioBound = 3 * time.Minute

// signalBound bounds a signalled server's exit: its grace period for the
// runs it cancels (35 s) and a margin.
const signalBound = 60 * time.Second

// mcpstdio <steps-file>: starts `stratos mcp serve` with the script's
// environment and speaks to it line by line, as a client that may send
// anything would. Each line of the steps file is a step:
//
//	send <line>       write the line to the server's stdin, as it is
//	expect <regexp>   wait until a line the server wrote matches, in any
//	                  order; each line matches one expect only
//	wait-runs         wait until `stratos runs list` lists no running run
//	kill <SIG> <code> send the server SIGTERM or SIGINT with its stdin still
//	                  open, and wait until it exits with this code (the last
//	                  step: the session ends by the signal, not by EOF)
//	kill KILL         send the server SIGKILL and wait until it has died
//	                  and the processes it started that share its stderr
//	                  (its runs) have closed it (the last step too)
//
// Then it closes the server's stdin and waits for it to exit. Every line
// the server wrote on stdout becomes the command's stdout, its stderr the
// command's stderr; the command fails when a step fails or the server
// exits with an error.
func cmdMCPStdio(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mcpstdio <steps-file>")
	}
	steps := strings.Split(strings.TrimSpace(ts.ReadFile(args[0])), "\n")
	cmd := exec.Command(filepath.Join(firstPathDir(ts), "stratos"), "mcp", "serve")
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = ts.Value(scriptEnvKey{}).(*scriptEnv).environ(ts)
	stdin, err := cmd.StdinPipe()
	ts.Check(err)
	stdout, err := cmd.StdoutPipe()
	ts.Check(err)
	// Stderr goes to a file, not a pipe the test copies: the runs the
	// server starts inherit it, and a killed server's exit must not wait for
	// them (whether they end is the script's to check).
	stderr, err := os.CreateTemp(ts.MkAbs("."), ".mcpstdio-stderr-*")
	ts.Check(err)
	defer os.Remove(stderr.Name())
	defer stderr.Close()
	cmd.Stderr = stderr
	ts.Check(cmd.Start())
	out := newLineLog(stdout)
	defer func() {
		fmt.Fprint(ts.Stdout(), strings.Join(out.all(), "\n")+"\n")
		fmt.Fprint(ts.Stderr(), ts.ReadFile(stderr.Name()))
	}()
	exited := make(chan error, 1)
	go func() { out.wait(); exited <- cmd.Wait() }()
	if sig, code, ok := killStep(ts, steps); ok {
		steps = steps[:len(steps)-1]
		if err := runStdioSteps(ts, steps, stdin, out); err != nil {
			ts.Fatalf("%v", err)
		}
		ts.Check(cmd.Process.Signal(sig))
		awaitExit(ts, cmd, exited, code)
		stdin.Close()
		return
	}
	stepErr := runStdioSteps(ts, steps, stdin, out)
	stdin.Close()
	select {
	case err = <-exited:
	case <-time.After(stdioBound):
		_ = cmd.Process.Kill()
		err = fmt.Errorf("the server did not exit within %v of the end of its stdin", stdioBound)
		<-exited
	}
	if stepErr != nil {
		ts.Fatalf("%v", stepErr)
	}
	if err != nil {
		ts.Fatalf("stratos mcp serve: %v", err)
	}
}

// killStep reads a last step `kill <SIG> <code>`.
func killStep(ts *testscript.TestScript, steps []string) (sig os.Signal, code int, ok bool) {
	f := strings.Fields(steps[len(steps)-1])
	if len(f) == 0 || f[0] != "kill" {
		return nil, 0, false
	}
	if len(f) != 3 {
		if len(f) == 2 && f[1] == "KILL" {
			return syscall.SIGKILL, killedBySignal, true
		}
		ts.Fatalf("usage: kill TERM|INT <exit code>, or kill KILL")
	}
	switch f[1] {
	case "TERM":
		sig = syscall.SIGTERM
	case "INT":
		sig = os.Interrupt
	default:
		ts.Fatalf("kill: unknown signal %q (TERM, INT; KILL without a code)", f[1])
	}
	code, err := strconv.Atoi(f[2])
	ts.Check(err)
	return sig, code, true
}

// killedBySignal is the exit code os/exec reports for a process a signal
// killed.
const killedBySignal = -1

// awaitExit waits, stdin still open, until the signalled server exits with
// code; a server that stays up fails the script within its grace period
// and a margin.
func awaitExit(ts *testscript.TestScript, cmd *exec.Cmd, exited <-chan error, code int) {
	var err error
	select {
	case err = <-exited:
	case <-time.After(signalBound):
		_ = cmd.Process.Kill()
		<-exited
		ts.Fatalf("the server did not exit within %v of the signal", signalBound)
	}
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("stratos mcp serve: %v", err)
	}
	if got != code {
		ts.Fatalf("stratos mcp serve exited with %d (-1: killed by a signal), want %d", got, code)
	}
}

func runStdioSteps(ts *testscript.TestScript, steps []string, stdin io.Writer, out *lineLog) error {
	for _, step := range steps {
		verb, rest, _ := strings.Cut(step, " ")
		switch verb {
		case "send":
			if _, err := io.WriteString(stdin, rest+"\n"); err != nil {
				return fmt.Errorf("%s: %w", step, err)
			}
		case "expect":
			re, err := regexp.Compile(rest)
			if err != nil {
				return fmt.Errorf("%s: %w", step, err)
			}
			if !out.await(re, stdioBound) {
				if out.ended() {
					return fmt.Errorf("%s: no such line before the server closed its stdout", step)
				}
				return fmt.Errorf("%s: no such line within %v", step, stdioBound)
			}
		case "wait-runs":
			if err := waitNoRunningRun(ts); err != nil {
				return fmt.Errorf("%s: %w", step, err)
			}
		default:
			return fmt.Errorf("unknown step %q (send, expect, wait-runs; kill only last)", step)
		}
	}
	return nil
}

// waitNoRunningRun polls `stratos runs list --status running` until it is
// empty.
func waitNoRunningRun(ts *testscript.TestScript) error {
	ctx, cancel := context.WithTimeout(context.Background(), stdioBound)
	defer cancel()
	for {
		cmd := exec.CommandContext(ctx, filepath.Join(firstPathDir(ts), "stratos"), "runs", "list", "--status", "running", "--json")
		cmd.Dir = ts.MkAbs(".")
		cmd.Env = ts.Value(scriptEnvKey{}).(*scriptEnv).environ(ts)
		data, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("stratos runs list: %w", err)
		}
		var l struct {
			Runs []json.RawMessage `json:"runs"`
		}
		if err := json.Unmarshal(data, &l); err != nil {
			return fmt.Errorf("stratos runs list: %w", err)
		}
		if len(l.Runs) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("runs still running: %s", data)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// lineLog collects the lines a process writes; await takes them in any
// order.
type lineLog struct {
	mu     sync.Mutex
	lines  []string
	taken  map[int]bool // lines an await matched
	grew   chan struct{}
	closed chan struct{}
}

func newLineLog(r io.Reader) *lineLog {
	l := &lineLog{taken: map[int]bool{}, grew: make(chan struct{}, 1), closed: make(chan struct{})}
	go func() {
		defer close(l.closed)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 32<<20)
		for sc.Scan() {
			l.mu.Lock()
			l.lines = append(l.lines, sc.Text())
			l.mu.Unlock()
			select {
			case l.grew <- struct{}{}:
			default:
			}
		}
	}()
	return l
}

// await waits until a line no earlier await took matches re, and takes it.
func (l *lineLog) await(re *regexp.Regexp, bound time.Duration) bool {
	deadline := time.After(bound)
	for {
		if l.take(re) {
			return true
		}
		select {
		case <-l.grew:
		case <-l.closed:
			return l.take(re)
		case <-deadline:
			return false
		}
	}
}

func (l *lineLog) take(re *regexp.Regexp) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, line := range l.lines {
		if !l.taken[i] && re.MatchString(line) {
			l.taken[i] = true
			return true
		}
	}
	return false
}

func (l *lineLog) wait() { <-l.closed }

// ended reports whether the process closed its output.
func (l *lineLog) ended() bool {
	select {
	case <-l.closed:
		return true
	default:
		return false
	}
}

func (l *lineLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}
