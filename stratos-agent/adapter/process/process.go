// Package process supervises one harness CLI for an adapter: it starts the
// CLI in a process group of its own that dies with the agent host, reads
// its stdout line by line and drains its stderr without ever blocking the
// CLI, keeps the end of stderr for error messages, and shuts it down in
// bounded steps (stdin closed, SIGTERM to the group, SIGKILL to the group).
//
// An adapter speaks its harness's protocol over WriteLine and the Stdout
// callback; everything about the process's life is here, so every adapter
// gets the same guarantees: no CLI outlives its host, no CLI waits on a
// full pipe, no shutdown waits forever.
package process

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/procgroup"
)

// ErrStdinClosed is returned by WriteLine once stdin is closed (by
// CloseStdin, Shutdown, or because the process exited).
var ErrStdinClosed = errors.New("the process's stdin is closed")

// Grace bounds the shutdown steps. Zero fields take the defaults.
type Grace struct {
	// StdinClose is how long the CLI gets to exit by itself once stdin
	// is closed (a CLI stops its background work then; SIGKILL would
	// orphan it).
	StdinClose time.Duration
	// Terminate is the wait after SIGTERM to the group.
	Terminate time.Duration
	// Kill is the wait after SIGKILL to the group.
	Kill time.Duration
	// Drain bounds reading stdout and stderr after the CLI exited: a
	// descendant that inherited the pipes must not keep the readers alive.
	Drain time.Duration
}

// DefaultGrace are the bounds used for zero Grace fields.
var DefaultGrace = Grace{StdinClose: 5 * time.Second, Terminate: 3 * time.Second, Kill: 2 * time.Second, Drain: 2 * time.Second}

// defaultTail is how much of stderr error messages quote.
const defaultTail = 8 << 10

// Spec describes the process to start.
type Spec struct {
	// Name names the CLI in messages ("claude", "codex").
	Name string
	Path string
	Args []string
	Dir  string
	Env  []string
	Log  hclog.Logger
	// Stdout receives every non-blank stdout line, trimmed, in order, on
	// the reader goroutine. It must not block for long: answer requests
	// from a goroutine of its own. Lines have no length limit.
	Stdout func(line []byte)
	// StderrTail is how many bytes of stderr ExitError quotes (default 8 KiB).
	StderrTail int
	Grace      Grace
}

// Process is one running CLI.
type Process struct {
	name  string
	pg    *procgroup.Process
	log   hclog.Logger
	grace Grace

	wmu         sync.Mutex // one writer at a time: interleaved lines corrupt the protocol
	stdin       io.WriteCloser
	stdinClosed bool

	stderr *tail
	exited chan struct{} // closed once the process was reaped and its pipes drained

	mu      sync.Mutex
	exitErr error
}

// Start starts the CLI and its readers.
func Start(s Spec) (*Process, error) {
	if s.Log == nil {
		s.Log = hclog.NewNullLogger()
	}
	if s.Stdout == nil {
		s.Stdout = func([]byte) {}
	}
	if s.StderrTail <= 0 {
		s.StderrTail = defaultTail
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", s.Name, err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(outR, outW)
		return nil, fmt.Errorf("start %s: %w", s.Name, err)
	}
	cmd := exec.Command(s.Path, s.Args...)
	cmd.Dir, cmd.Env = s.Dir, s.Env
	cmd.Stdout, cmd.Stderr = outW, errW
	stdin, err := cmd.StdinPipe()
	var pg *procgroup.Process
	if err == nil {
		pg, err = procgroup.Start(cmd, groupOptions)
	}
	closeAll(outW, errW)
	if err != nil {
		closeAll(outR, errR)
		return nil, fmt.Errorf("start %s: %w", s.Path, err)
	}
	p := &Process{name: s.Name, pg: pg, log: s.Log, grace: s.Grace.withDefaults(), stdin: stdin,
		stderr: &tail{max: s.StderrTail}, exited: make(chan struct{})}
	stdoutDone := make(chan struct{})
	stderrDone := make(chan struct{})
	go readLines(outR, s.Stdout, stdoutDone)
	go readLines(errR, p.onStderr, stderrDone)
	go p.reap(outR, errR, stdoutDone, stderrDone)
	return p, nil
}

// groupOptions: the CLI runs in a process group of its own, led by a
// patient watchdog. When the agent host dies, even by SIGKILL, the watchdog
// sends the CLI one SIGTERM, which lets it stop its own work: a harness CLI
// runs its tools in sessions of their own, out of the group's reach, so
// only the CLI can stop them. It must be one: Claude Code takes a second
// SIGTERM as "exit now" and leaves its running tool behind, and the
// kernel's parent-death signal can come several times when a Go process
// dies (once per thread the CLI is handed to). A CLI still running
// orphanPatience later, and whatever is left in its group, gets SIGKILL
// (testscripts/testdata/claude/kill-mid-turn.txtar).
var groupOptions = procgroup.Options{DeathSignal: syscall.SIGTERM, WatchdogPatience: orphanPatience}

// orphanPatience is how long a CLI whose host died may take to stop.
const orphanPatience = 10 * time.Second

func (g Grace) withDefaults() Grace {
	pick := func(v, d time.Duration) time.Duration {
		if v <= 0 {
			return d
		}
		return v
	}
	return Grace{StdinClose: pick(g.StdinClose, DefaultGrace.StdinClose), Terminate: pick(g.Terminate, DefaultGrace.Terminate),
		Kill: pick(g.Kill, DefaultGrace.Kill), Drain: pick(g.Drain, DefaultGrace.Drain)}
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}

// Pid is the CLI's process ID (its group is led by its watchdog).
func (p *Process) Pid() int { return p.pg.Pid() }

// readLines hands every non-blank line of r to fn. It reads with
// ReadBytes rather than a Scanner: protocol lines can be far longer than a
// Scanner's buffer.
func readLines(r io.Reader, fn func([]byte), done chan<- struct{}) {
	defer close(done)
	br := bufio.NewReaderSize(r, 256<<10)
	for {
		line, err := br.ReadBytes('\n')
		if t := bytes.TrimSpace(line); len(t) > 0 {
			fn(t)
		}
		if err != nil {
			return
		}
	}
}

func (p *Process) onStderr(line []byte) {
	p.stderr.Write(append(line, '\n'))
	p.log.Debug(p.name+" stderr", "line", Truncate(string(line), 500))
}

// reap waits for the process, then gives the readers a bounded time to
// drain what it wrote last.
func (p *Process) reap(outR, errR *os.File, stdoutDone, stderrDone <-chan struct{}) {
	err := p.pg.Wait()
	deadline := time.Now().Add(p.grace.Drain)
	_ = outR.SetReadDeadline(deadline)
	_ = errR.SetReadDeadline(deadline)
	<-stdoutDone
	<-stderrDone
	closeAll(outR, errR)
	p.wmu.Lock()
	p.stdinClosed = true
	p.wmu.Unlock()
	p.mu.Lock()
	p.exitErr = err
	p.mu.Unlock()
	close(p.exited)
}

// Exited is closed once the process was reaped and its output read.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitError describes how the process ended, with the end of its stderr.
// A caller that learned of the end from a failed write can be ahead of
// the reaping, so it waits (a bounded time) for Exited: the message then
// has the exit status and the last of stderr.
func (p *Process) ExitError() error {
	t := time.NewTimer(p.grace.Drain + time.Second)
	select {
	case <-p.exited:
	case <-t.C:
	}
	t.Stop()
	p.mu.Lock()
	err := p.exitErr
	p.mu.Unlock()
	msg := p.name + " exited"
	if err != nil {
		msg = fmt.Sprintf("%s exited: %v", p.name, err)
	}
	if s := p.stderr.String(); s != "" {
		msg += "; stderr: " + s
	}
	return errors.New(msg)
}

// StderrTail is the end of what the process wrote to stderr so far.
func (p *Process) StderrTail() string { return p.stderr.String() }

// WriteLine writes b and a newline to stdin, one writer at a time.
func (p *Process) WriteLine(b []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.stdinClosed {
		return ErrStdinClosed
	}
	if _, err := p.stdin.Write(append(b[:len(b):len(b)], '\n')); err != nil {
		// A process that exited fails the write with EPIPE, or with
		// ErrClosed once waiting for it closed our end, before reap marks
		// stdin closed: the same end, which callers report with ExitError.
		if errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) {
			return fmt.Errorf("write to %s: %w (%w)", p.name, ErrStdinClosed, err)
		}
		return fmt.Errorf("write to %s: %w", p.name, err)
	}
	return nil
}

// CloseStdin closes stdin (for most CLIs: "no more input, exit").
func (p *Process) CloseStdin() {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if !p.stdinClosed {
		p.stdinClosed = true
		_ = p.stdin.Close()
	}
}

// Signal sends sig to the CLI's whole process group. ESRCH (nobody left)
// is not an error.
func (p *Process) Signal(sig syscall.Signal) error {
	if err := p.pg.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("signal %s's process group: %w", p.name, err)
	}
	return nil
}

// Wait waits up to d for the process to exit (or for ctx to end) and
// reports whether it did.
func (p *Process) Wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// Shutdown stops the CLI in bounded steps: stdin closed and a wait, then
// SIGTERM to the group and a wait, then SIGKILL to the group. Whatever is
// left in the group after the CLI exited (a helper that ignored stdin
// closing) gets SIGTERM. An adapter whose protocol has its own shutdown
// request sends it before calling Shutdown.
//
// The steps are bounded by Grace, not by ctx: a caller whose context has
// already ended (a host shutting down) must still get the graceful steps,
// because SIGKILL leaves a CLI no chance to stop its background work. It
// returns an error only when the process could not be reaped.
func (p *Process) Shutdown(ctx context.Context) error {
	ctx = context.WithoutCancel(ctx)
	p.CloseStdin()
	if p.Wait(ctx, p.grace.StdinClose) {
		_ = p.Signal(syscall.SIGTERM)
		return nil
	}
	p.log.Debug(p.name+" did not exit after stdin closed; sending SIGTERM", "pid", p.Pid())
	_ = p.Signal(syscall.SIGTERM)
	if p.Wait(ctx, p.grace.Terminate) {
		_ = p.Signal(syscall.SIGTERM)
		return nil
	}
	p.log.Warn(p.name+" did not exit after SIGTERM; killing its process group", "pid", p.Pid())
	_ = p.Signal(syscall.SIGKILL)
	if p.Wait(ctx, p.grace.Kill) {
		return nil
	}
	return fmt.Errorf("%s (pid %d) did not exit after SIGKILL", p.name, p.Pid())
}

// tail keeps the last max bytes written.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(b []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf))
}

// Truncate shortens s to n bytes for logs, marking the cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
