// Package supervise runs the SDK's runner in node and supervises it: its own
// process group, a parent-death signal, the invocation on stdin, the result
// on fd 3 (framed under a per-run key), cancellation with a bounded grace
// period, and nothing left behind (shared/procgroup).
package supervise

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/procgroup"
)

// DefaultCancelGrace is how long a cancelled runner gets to cancel the
// workflow, await its cleanup and report before its process group is killed.
const DefaultCancelGrace = 10 * time.Second

// cancelLine asks the runner to cancel the run (the runner protocol).
const cancelLine = "cancel\n"

// Spec describes one runner process.
type Spec struct {
	// Cmd is the node command (path, args, environment); Start configures
	// its working directory, streams and process attributes.
	Cmd *exec.Cmd
	// Dir is the working directory: the invoking one, never the workflow's.
	Dir string
	// Invocation is the runner's invocation document; it is sent as the
	// first line of stdin. It must carry ResultKey (hex) as "resultKey".
	Invocation []byte
	// ResultKey keys the MAC of the runner's result frame (NewResultKey).
	ResultKey []byte
	// Output receives the workflow's stdout and stderr.
	Output io.Writer
	// CancelGrace bounds the wait after a cancellation (DefaultCancelGrace if 0).
	CancelGrace time.Duration
	Log         hclog.Logger
}

// Outcome is how the runner ended.
type Outcome struct {
	// Result is the document the runner wrote to fd 3 in a valid frame,
	// nil when it wrote none.
	Result []byte
	// IgnoredBytes counts what else was written to the result channel
	// (unframed or wrongly keyed lines): stratos run drops it.
	IgnoredBytes int
	// Cancelled reports that the run was cancelled (ctx was done).
	Cancelled bool
	// Killed reports that the runner did not finish within the grace period
	// after a cancellation and its process group was killed.
	Killed bool
	// Wait is node's exit status (nil for exit 0).
	Wait error
}

// Run starts the runner, sends it spec.Invocation and waits for it (Start,
// then Runner.Run).
func Run(ctx context.Context, spec Spec) (*Outcome, error) {
	r, err := Start(spec)
	if err != nil {
		return nil, err
	}
	return r.Run(ctx, spec.Invocation), nil
}

// Runner is a started runner that has not been sent its invocation yet:
// node starts and loads the runtime while the caller finishes what must
// precede the workflow (the run record, checks). The runtime imports
// nothing of the workflow before its invocation arrives.
type Runner struct {
	p    *process
	spec Spec
}

// Start starts the runner without sending it anything; spec.Invocation is
// not used. Follow it with Run, or with Abort when the run will not happen.
// Start returns an error only when node could not be started.
func Start(spec Spec) (*Runner, error) {
	if spec.CancelGrace == 0 {
		spec.CancelGrace = DefaultCancelGrace
	}
	if len(spec.ResultKey) == 0 {
		return nil, errors.New("supervise: no result key")
	}
	p, err := start(spec)
	if err != nil {
		return nil, err
	}
	return &Runner{p: p, spec: spec}, nil
}

// Run sends the invocation and waits for the runner. Cancelling ctx
// (SIGINT/SIGTERM) asks the runner to cancel; if it has not exited after
// the grace period, its process group is killed.
func (r *Runner) Run(ctx context.Context, invocation []byte) *Outcome {
	p, spec := r.p, r.spec
	go p.sendInvocation(invocation)
	// The cancel line must follow the invocation line, and neither write may
	// block the grace timer: a runner that reads nothing must still be killed.
	out := &Outcome{}
	select {
	case out.Wait = <-p.exited:
	case <-ctx.Done():
		out.Cancelled = true
		spec.Log.Info("cancelling the run", "grace", spec.CancelGrace)
		go p.requestCancel()
		timer := time.NewTimer(spec.CancelGrace)
		select {
		case out.Wait = <-p.exited:
			timer.Stop()
		case <-timer.C:
			spec.Log.Warn("the workflow did not finish cancelling in time; killing its processes", "grace", spec.CancelGrace)
			out.Killed = true
			_ = p.proc.Signal(syscall.SIGKILL)
			out.Wait = <-p.exited
		}
	}
	// procgroup has killed whatever the workflow started in node's process
	// group and left behind.
	p.stdin.Close()
	read := p.result()
	out.Result, out.IgnoredBytes = nonEmpty(read.doc), read.ignored
	return out
}

// ResultRead is closed once the result channel has been read: the
// runner's result has arrived (node may still be exiting: it writes its
// result before its exit, which takes milliseconds more), or the channel
// ended without one. Run and ReadResult return the same result.
func (r *Runner) ResultRead() <-chan struct{} { return r.p.resultDone }

// ReadResult waits for ResultRead and returns the runner's result, nil
// when it wrote none. With it the caller can act on the result while node
// exits; Run still waits for the exit.
func (r *Runner) ReadResult() []byte {
	<-r.p.resultDone
	return nonEmpty(r.p.read.doc)
}

// Abort ends a runner that was sent no invocation: it has run no workflow
// code, so it is killed with its group at once.
func (r *Runner) Abort() {
	if r == nil {
		return
	}
	_ = r.p.proc.Signal(syscall.SIGKILL)
	<-r.p.exited
	r.p.stdin.Close()
	r.p.result()
}

// process is a started runner.
type process struct {
	proc    *procgroup.Process
	stdin   io.WriteCloser
	sent    chan struct{} // closed once the invocation is written
	exited  chan error
	resultR *os.File
	key     []byte
	// read is what the result channel held; it is set before resultDone
	// is closed and never after.
	read       channelRead
	resultDone chan struct{}
}

func start(spec Spec) (*process, error) {
	cmd := spec.Cmd
	cmd.Dir = spec.Dir
	cmd.Stdout, cmd.Stderr = spec.Output, spec.Output
	// When the output is not a file, exec copies it through a pipe that
	// processes the workflow started may hold open: do not wait for them.
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	resultR, resultW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{resultW} // fd 3 in the runner
	p := &process{stdin: stdin, sent: make(chan struct{}), exited: make(chan error, 1), resultDone: make(chan struct{}), resultR: resultR, key: spec.ResultKey}
	// The watchdog takes what the workflow started (the agent host, for
	// one) when stratos run dies: the parent-death signal reaches node only.
	path := cmd.Path
	p.proc, err = procgroup.Start(cmd, procgroup.Options{Watchdog: true})
	resultW.Close() // the runner holds its own copy
	if err != nil {
		resultR.Close()
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	go func() { p.exited <- p.proc.Wait() }()
	go p.readResult()
	return p, nil
}

func (p *process) sendInvocation(doc []byte) {
	defer close(p.sent)
	line := append(bytes.TrimSpace(doc), '\n')
	_, _ = p.stdin.Write(line) // a runner that died early is reported by Wait
}

func (p *process) requestCancel() {
	<-p.sent
	_, _ = io.WriteString(p.stdin, cancelLine)
}

func (p *process) readResult() {
	defer close(p.resultDone)
	p.read = readChannel(p.resultR, p.key)
}

// result returns the document once node has exited: it wrote it before
// exiting, so it is complete in the pipe; a runner that died without one
// gives EOF once its process group is gone. Closing the read end bounds the
// wait for anything that escaped the group and still holds fd 3.
func (p *process) result() channelRead {
	defer p.resultR.Close()
	select {
	case <-p.resultDone:
	case <-time.After(time.Second):
		p.resultR.Close()
		<-p.resultDone
	}
	return p.read
}

func nonEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}
