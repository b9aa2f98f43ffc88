package mcpclient

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/mcpdecl"
	"github.com/stratoscli/stratos/shared/procgroup"
)

// stdioProcess is a started stdio server: its process group, the ends of
// its stdin and stdout that Stratos holds, and the end of its stderr.
type stdioProcess struct {
	proc  *procgroup.Process
	stdin *os.File // the server's stdin, written by the SDK
	out   *os.File // the server's stdout, read by the SDK
	tail  *stderrTail

	stopOnce sync.Once
	exit     processExit
}

// processExit is how a stdio server ended.
type processExit struct {
	// Status says how it ended by itself ("exited with status 3"); "" when
	// it had to be killed, or for an HTTP server.
	Status string
	// Stderr holds the last lines it wrote on stderr (see stderrTail).
	Stderr []string
}

// startStdio starts the server in its own process group with pipes the
// SDK's IOTransport reads and writes. Closing the transport closes the
// server's stdin, which is a stdio server's cue to exit. Its stderr goes to
// stderr (nil: nowhere) and its last lines are kept for errors.
func startStdio(server mcpdecl.Server, stderr io.Writer) (*stdioProcess, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.Command(server.Command, server.Args...)
	cmd.Dir = server.Cwd
	cmd.Env = os.Environ()
	for _, k := range slices.Sorted(maps.Keys(server.Env)) {
		cmd.Env = append(cmd.Env, k+"="+server.Env[k])
	}
	tail := &stderrTail{next: stderr}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, tail
	// A descendant that left the server's group may keep the stderr pipe
	// open; waiting for the server must not wait for it.
	cmd.WaitDelay = stopGrace
	proc, err := procgroup.Start(cmd, procgroup.Options{DeathSignal: syscall.SIGKILL})
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	return &stdioProcess{proc: proc, stdin: inW, out: outR, tail: tail}, nil
}

// The SDK closes its transport's reader when a session ends; the
// server's stdout stays open until stop (keptOpen), so that what the
// server still writes while it shuts down is read, not refused with
// EPIPE (a Node server then prints a stack trace on the run's stderr).
func (p *stdioProcess) transport() mcp.Transport {
	return &mcp.IOTransport{Reader: keptOpen{p.out}, Writer: p.stdin, MaxLineLength: MaxMessageBytes}
}

// keptOpen is a reader whose Close does nothing.
type keptOpen struct{ io.Reader }

func (keptOpen) Close() error { return nil }

// termGrace is what a stdio server gets between SIGTERM and SIGKILL.
const termGrace = 2 * time.Second

// stop ends the server as MCP's stdio transport asks: it closes the
// server's stdin, reads (and drops) what the server still writes, waits up
// to grace for it to exit, then sends SIGTERM and, termGrace later,
// SIGKILL to its group; a zero grace kills at once. It returns how the
// server ended; later calls return the same without waiting again.
func (p *stdioProcess) stop(grace time.Duration) processExit {
	p.stopOnce.Do(func() {
		// The SDK may have closed stdin already; a second Close only fails.
		p.stdin.Close()
		go func() { _, _ = io.Copy(io.Discard, p.out) }()
		defer p.out.Close()
		exited := make(chan error, 1)
		go func() { exited <- p.proc.Wait() }()
		if ok, err := waitExit(exited, grace); ok {
			p.exit.Status = describeExit(err)
		} else if grace == 0 {
			_ = p.proc.Signal(syscall.SIGKILL)
			<-exited
		} else {
			_ = p.proc.Signal(syscall.SIGTERM)
			if ok, _ := waitExit(exited, termGrace); !ok {
				_ = p.proc.Signal(syscall.SIGKILL)
				<-exited
			}
		}
		p.exit.Stderr = p.tail.lines()
	})
	return p.exit
}

// waitExit waits up to d for exited and returns what it said; false when
// it did not come.
func waitExit(exited <-chan error, d time.Duration) (bool, error) {
	if d <= 0 {
		select {
		case err := <-exited:
			return true, err
		default:
			return false, nil
		}
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case err := <-exited:
		return true, err
	case <-timer.C:
		return false, nil
	}
}

// describeExit says how a process that ended by itself ended.
func describeExit(err error) string {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return "exited with status 0"
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return fmt.Sprintf("exited with status %d", ee.ExitCode())
	case errors.As(err, &ee):
		return "was killed (" + ee.String() + ")"
	}
	return "ended: " + err.Error()
}

// The end of a server's stderr that an error shows: enough to hold the
// reason a server gives for exiting, bounded so that a server that writes
// without end cannot make an error of megabytes.
const (
	tailLines   = 10
	tailLineMax = 512
)

// stderrTail passes a server's stderr on and keeps its last tailLines
// lines, each cut to tailLineMax bytes, control characters replaced.
type stderrTail struct {
	next io.Writer // nil: discarded

	mu      sync.Mutex
	done    []string // complete lines, the last tailLines of them
	partial []byte   // the line being written, up to tailLineMax bytes
	cut     bool     // partial lost bytes
}

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.record(p)
	t.mu.Unlock()
	if t.next != nil {
		// The server's stderr is informative: a destination that fails
		// must not stop the recording, nor the server.
		_, _ = t.next.Write(p)
	}
	return len(p), nil
}

func (t *stderrTail) record(p []byte) {
	for len(p) > 0 {
		line, rest, complete := strings.Cut(string(p), "\n")
		t.add(line)
		if !complete {
			return
		}
		t.finish()
		p = []byte(rest)
	}
}

func (t *stderrTail) add(s string) {
	if room := tailLineMax - len(t.partial); len(s) > room {
		s, t.cut = s[:max(room, 0)], true
	}
	t.partial = append(t.partial, s...)
}

func (t *stderrTail) finish() {
	line := clean(string(t.partial))
	if t.cut {
		line += "…"
	}
	t.partial, t.cut = t.partial[:0], false
	t.done = append(t.done, line)
	if len(t.done) > tailLines {
		t.done = append(t.done[:0], t.done[len(t.done)-tailLines:]...)
	}
}

// lines returns the kept lines, the unfinished last one included.
func (t *stderrTail) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.done...)
	if len(t.partial) > 0 {
		out = append(out, clean(string(t.partial)))
		if len(out) > tailLines {
			out = out[1:]
		}
	}
	return out
}

// clean makes a line of a server's stderr safe to print in an error: no
// carriage returns, escape sequences or other control characters.
func clean(s string) string {
	s = strings.ToValidUTF8(strings.TrimRight(s, "\r"), "?")
	return strings.TrimRight(strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r):
			return '?'
		}
		return r
	}, s), " ")
}
