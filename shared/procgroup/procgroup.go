// Package procgroup is the one way a Stratos process starts a child: in its
// own process group, with a parent-death signal, killed as a group when its
// context is cancelled, and with nothing of its group left once it has
// exited. Optionally a watchdog kills the whole group when the parent dies,
// which reaches the grandchildren a parent-death signal cannot (npm's
// install scripts, for instance); a patient watchdog instead gives the
// child one signal and time to stop its own work before it kills the child,
// its group and the descendants it ran elsewhere (a harness CLI's tools).
// Sessions ends what a child left running of the tools it was asked to
// stop, also processes no longer in its tree; Watch notes the sessions a
// child's tools start as they start, also for a child that dies.
package procgroup

import (
	"errors"
	"fmt"
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
	// WatchdogPatience, when not zero, asks for a patient watchdog instead:
	// when the starting process dies it sends DeathSignal to the child
	// alone, once, waits up to this long (rounded up to whole seconds) for
	// the child to exit, and then kills whatever is left of the group. The
	// kernel's parent-death signal is not used then: when a multi-threaded
	// parent dies, the kernel hands the child from one dying thread to the
	// next and signals it at every step, and some children take a second
	// signal as "exit now" (Claude Code then leaves its running tool
	// behind). The patient watchdog starts before the child and leads the
	// group, so the child never runs without it.
	WatchdogPatience time.Duration
}

// Process is a started child.
type Process struct {
	cmd  *exec.Cmd
	opts Options
	done chan error
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
	death := opts.DeathSignal
	if opts.patient() {
		death = 0 // the watchdog sends it, once
	}
	cmd.SysProcAttr = sysProcAttr(cmd.SysProcAttr, death)
	if cmd.Cancel != nil { // made by exec.CommandContext
		cmd.Cancel = func() error { return signalGroup(groupOf(cmd), opts.CancelSignal) }
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
		wd, err := p.launch()
		started <- err
		if err != nil {
			return
		}
		// Kill what the child left in its group while the group's ID is
		// still reserved (by the child's zombie, or by the patient watchdog
		// that leads it), then reap the child.
		awaitExit(p.cmd.Process.Pid)
		_ = signalGroup(p.group(), syscall.SIGKILL)
		err = p.cmd.Wait()
		wd.stop()
		p.done <- err
	}()
	return <-started
}

// launch starts the child and the watchdog the options ask for.
func (p *Process) launch() (*watchdog, error) {
	if p.opts.patient() && watchdogSupported {
		return p.launchPatient()
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	if !p.opts.Watchdog || !watchdogSupported {
		return nil, nil
	}
	wd, err := startWatchdog(p.group(), p.opts.DeathSignal)
	if err != nil {
		_ = signalGroup(p.group(), syscall.SIGKILL)
		_ = p.cmd.Wait()
		return nil, fmt.Errorf("start the watchdog of %s: %w", p.cmd.Path, err)
	}
	return wd, nil
}

// launchPatient starts the patient watchdog, then the child in the
// watchdog's group, then tells the watchdog which process the child is.
// Should this process die before that, the watchdog kills the group at
// once.
func (p *Process) launchPatient() (*watchdog, error) {
	wd, err := startPatientWatchdog(p.opts.DeathSignal, p.opts.WatchdogPatience)
	if err != nil {
		return nil, fmt.Errorf("start the watchdog of %s: %w", p.cmd.Path, err)
	}
	joinGroup(p.cmd, wd.pid())
	if err := p.cmd.Start(); err != nil {
		wd.stop()
		return nil, err
	}
	if err := wd.tell(p.cmd.Process.Pid); err != nil {
		_ = signalGroup(p.group(), syscall.SIGKILL)
		_ = p.cmd.Wait()
		wd.stop()
		return nil, fmt.Errorf("start the watchdog of %s: %w", p.cmd.Path, err)
	}
	return wd, nil
}

// Pid is the child's process ID. Its group's ID is the same unless a
// patient watchdog leads the group.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Wait waits for the child to exit and returns cmd.Wait's result. Nothing of
// the child's group is left running afterwards.
func (p *Process) Wait() error {
	err := <-p.done
	p.done <- err // a second Wait sees the same result
	return err
}

// group is the child's process group: its own, or its patient watchdog's.
func (p *Process) group() int { return groupOf(p.cmd) }

// Signal sends sig to the child's whole group.
func (p *Process) Signal(sig syscall.Signal) error { return signalGroup(p.group(), sig) }

func (o Options) patient() bool { return o.WatchdogPatience > 0 }

func (o Options) withDefaults() Options {
	if o.DeathSignal == 0 {
		o.DeathSignal = syscall.SIGKILL
	}
	if o.CancelSignal == 0 {
		o.CancelSignal = syscall.SIGKILL
	}
	return o
}
