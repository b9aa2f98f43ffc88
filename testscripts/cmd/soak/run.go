package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/stratoscli/stratos/shared/proctest"
)

// Bounds of waits for something that should happen; they measure nothing.
const (
	// stopGrace is how long a run the soak stops (Ctrl-C of the soak) has
	// to cancel before it is killed; a run cancels within 10 s.
	stopGrace = 15 * time.Second
	// leftoverBound is how long the processes of a run that ended may
	// take to go: a harness's watchdog gives its CLI up to 10 s.
	leftoverBound = 30 * time.Second
)

// process is a started `stratos` command and its end.
type process struct {
	cmd            *exec.Cmd
	start          time.Time
	stdout, stderr bytes.Buffer
	done           chan struct{}
	err            error
	wall           time.Duration
}

// start starts `stratos args...` with the extra environment entries; when
// ctx ends (the soak is interrupted) the run gets SIGTERM, as at a Ctrl-C,
// and SIGKILL stopGrace later.
func (s *stack) start(ctx context.Context, extra []string, args ...string) (*process, error) {
	cmd := s.command(extra, args...)
	p := &process{cmd: cmd, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = &p.stdout, &p.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p.start = time.Now()
	go func() {
		p.err = cmd.Wait()
		p.wall = time.Since(p.start)
		close(p.done)
	}()
	go func() {
		select {
		case <-p.done:
		case <-ctx.Done():
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-p.done:
			case <-time.After(stopGrace):
				_ = cmd.Process.Kill()
			}
		}
	}()
	return p, nil
}

// wait waits for the command's end, at most bound; false when it did not
// end in time.
func (p *process) wait(bound time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(bound):
		return false
	}
}

// exitCode is the command's exit status, -1 when a signal ended it.
func (p *process) exitCode() int {
	var ee *exec.ExitError
	if p.err == nil {
		return 0
	}
	if errors.As(p.err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// leftovers waits until no process holds marker, at most bound, and
// describes the survivors, one line each with its kind, and kills them;
// "" when none is left.
func leftovers(marker string, bound time.Duration) string {
	left := proctest.WaitNone(bound, func() []proctest.Process { return proctest.WithEnv(marker) })
	if len(left) == 0 {
		return ""
	}
	var b strings.Builder
	for _, p := range left {
		fmt.Fprintf(&b, "\t%s: %s\n", classify(p.Argv()), p)
	}
	killMarked(marker)
	return b.String()
}

// killMarked kills every process holding marker with SIGKILL, again until
// none is left (one may start another meanwhile), for at most 10 s.
func killMarked(marker string) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := proctest.WithEnv(marker)
		if len(left) == 0 || time.Now().After(deadline) {
			return
		}
		for _, p := range left {
			_ = syscall.Kill(p.PID, syscall.SIGKILL)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// newRecords returns the records in after that are not in before.
func newRecords(before, after []string) []string {
	var out []string
	for _, id := range after {
		if !slices.Contains(before, id) {
			out = append(out, id)
		}
	}
	return out
}
