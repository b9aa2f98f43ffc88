// Package procgroup is the one way a Stratos process starts a child: in its
// own process group, with a parent-death signal, killed as a group when its
// context is cancelled, and with nothing of its group left once it has
// exited. Optionally a watchdog kills the whole group when the parent dies,
// which reaches the grandchildren a parent-death signal cannot (npm's
// install scripts, for instance).
package procgroup

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

// DefaultWaitDelay bounds, after a cancellation, the wait for the group to
// exit and for the output pipes to close (exec.Cmd.WaitDelay).
const DefaultWaitDelay = 5 * time.Second

// Options says how the child and its group end.
type Options struct {
	// DeathSignal is what the kernel sends the child when the starting
	// process dies, even by SIGKILL (Linux only). Zero means SIGKILL; a
	// child with a clean shutdown of its own may ask for SIGTERM.
	DeathSignal syscall.Signal
	// CancelSignal is sent to the whole group when the command's context is
	// done (commands made by exec.CommandContext). Zero means SIGKILL. A
	// group still running WaitDelay later loses its leader to SIGKILL and
	// then the rest of the group with it.
	CancelSignal syscall.Signal
	// Watchdog adds a process to the child's group that waits for the end
	// of a pipe only this process holds and, when it ends, signals the whole
	// group (DeathSignal, then SIGKILL after a grace period). It costs one
	// sh process per child, started beside the child once the child runs
	// (so the child's own start does not wait for a shell); use it for
	// children whose own children would otherwise outlive a killed parent.
	Watchdog bool
}

// Process is a started child.
type Process struct {
	cmd  *exec.Cmd
	opts Options
	done chan error
	pgid int
}

// Run starts cmd as Start does and waits for it.
func Run(cmd *exec.Cmd, opts Options) error {
	p, err := Start(cmd, opts)
	if err != nil {
		return err
	}
	return p.Wait()
}

// Output runs cmd as Run does and returns its standard output.
func Output(cmd *exec.Cmd, opts Options) ([]byte, error) {
	if cmd.Stdout != nil {
		return nil, errors.New("procgroup: Stdout already set")
	}
	var out limitedBuffer
	cmd.Stdout = &out
	err := Run(cmd, opts)
	return out.Bytes(), err
}

// Start configures cmd (process attributes, cancellation, wait delay) and
// starts it. The caller waits with Process.Wait, never cmd.Wait.
func Start(cmd *exec.Cmd, opts Options) (*Process, error) {
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	opts = opts.withDefaults()
	p := &Process{cmd: cmd, opts: opts, done: make(chan error, 1)}
	cmd.SysProcAttr = sysProcAttr(cmd.SysProcAttr, opts.DeathSignal)
	if cmd.Cancel != nil { // made by exec.CommandContext
		cmd.Cancel = func() error { return signalGroup(cmd.Process.Pid, opts.CancelSignal) }
		if cmd.WaitDelay == 0 {
			cmd.WaitDelay = DefaultWaitDelay
		}
	}
	if err := p.start(); err != nil {
		return nil, err
	}
	return p, nil
}

// start starts the child (and its watchdog) and waits for it on one locked
// OS thread: Linux sends the parent-death signal when the thread that
// started the child exits, so the signal must mean "this process is gone",
// not "a runtime thread went away".
func (p *Process) start() error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := p.cmd.Start(); err != nil {
			started <- err
			return
		}
		p.pgid = p.cmd.Process.Pid
		watchdog, guard, err := p.startWatchdog()
		if err != nil {
			_ = signalGroup(p.pgid, syscall.SIGKILL)
			_ = p.cmd.Wait()
			started <- fmt.Errorf("start the watchdog of %s: %w", p.cmd.Path, err)
			return
		}
		started <- nil
		// Kill what the child left in its group while its zombie still
		// reserves the group's ID, then reap it.
		awaitExit(p.pgid)
		_ = signalGroup(p.pgid, syscall.SIGKILL)
		err = p.cmd.Wait()
		if watchdog != nil {
			guard.Close() // its cue, in case the group kill missed it
			_ = watchdog.Wait()
		}
		p.done <- err
	}()
	return <-started
}

// startWatchdog starts the watchdog when the options ask for one.
func (p *Process) startWatchdog() (*exec.Cmd, *os.File, error) {
	if !p.opts.Watchdog || !watchdogSupported {
		return nil, nil, nil
	}
	return startWatchdog(p.pgid, p.opts.DeathSignal)
}

// Pid is the child's process ID, which is also its group's ID.
func (p *Process) Pid() int { return p.pgid }

// Wait waits for the child to exit and returns cmd.Wait's result. Nothing of
// the child's group is left running afterwards.
func (p *Process) Wait() error {
	err := <-p.done
	p.done <- err // a second Wait sees the same result
	return err
}

// Signal sends sig to the child's whole group.
func (p *Process) Signal(sig syscall.Signal) error { return signalGroup(p.pgid, sig) }

func (o Options) withDefaults() Options {
	if o.DeathSignal == 0 {
		o.DeathSignal = syscall.SIGKILL
	}
	if o.CancelSignal == 0 {
		o.CancelSignal = syscall.SIGKILL
	}
	return o
}
