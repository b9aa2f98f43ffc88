// Package detach starts a run in the background: a second `stratos-run run`
// in its own session (no controlling terminal, so closing the terminal or
// pressing Ctrl-C there does not reach it), whose console output goes to a
// file in its run record. The starting process waits only until the
// background run has written the start of its record, so a run ID it prints
// always names a record, and an error before that point still comes back at
// once.
package detach

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// ReadyFD is the file descriptor of the ready channel in the background run
// (the first of exec.Cmd's ExtraFiles).
const ReadyFD = 3

// readyLine is what the background run writes once its record has begun.
const readyLine = "ready"

// Spec describes the background run.
type Spec struct {
	// Path and Args are the program and its arguments (Args[0] included);
	// Args must make the program call Ready on ReadyFD.
	Path string
	Args []string
	Dir  string
	// Stdin is sent to the program's standard input, then closed.
	Stdin []byte
	// Console receives the program's stdout and stderr; it is the record's
	// console log, and it must outlive the starting process.
	Console *os.File
}

// Start starts the background run and waits until it reports ready; it
// returns the pid. When the run exits before it is ready, Start returns an
// error; the run's own report is in the console file.
func Start(ctx context.Context, spec Spec) (int, error) {
	readyR, readyW, err := os.Pipe()
	if err != nil {
		return 0, fmt.Errorf("create the ready pipe: %w", err)
	}
	defer readyR.Close()
	cmd := &exec.Cmd{
		Path: spec.Path, Args: spec.Args, Dir: spec.Dir,
		Stdin:  strings.NewReader(string(spec.Stdin)),
		Stdout: spec.Console, Stderr: spec.Console,
		ExtraFiles:  []*os.File{readyW},
		SysProcAttr: &syscall.SysProcAttr{Setsid: true},
	}
	err = cmd.Start()
	readyW.Close() // the run holds its own copy
	if err != nil {
		return 0, fmt.Errorf("start %s: %w", spec.Path, err)
	}
	ready := make(chan bool, 1)
	go func() { ready <- readReady(readyR) }()
	select {
	case ok := <-ready:
		if ok {
			// The run is on its own now: it is reaped by init once this
			// process has exited, and reconciled like any other run.
			pid := cmd.Process.Pid
			_ = cmd.Process.Release()
			return pid, nil
		}
		return 0, fmt.Errorf("the background run exited before it began: %w", cmd.Wait())
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return 0, ctx.Err()
	}
}

// readReady reports whether the ready line arrived before the pipe closed.
func readReady(r io.Reader) bool {
	line, err := bufio.NewReader(r).ReadString('\n')
	return err == nil && strings.TrimSpace(line) == readyLine
}

// Ready tells the starting process, through fd, that the run's record has
// begun, and closes fd.
func Ready(fd int) error {
	f := os.NewFile(uintptr(fd), "ready")
	if f == nil {
		return errors.New("the ready channel is not open")
	}
	defer f.Close()
	if _, err := io.WriteString(f, readyLine+"\n"); err != nil {
		return fmt.Errorf("report ready: %w", err)
	}
	return nil
}
