// Command execfloor is the floor of `stratos run`'s process chain, for
// scripts/bench-run. Started as the dispatcher `stratos` is, it replaces
// itself with a second start of its own binary (as the dispatcher execs
// stratos-run), and that one starts its arguments as a child (node and the
// floor's script), passes its output through and exits with its status. It
// does nothing else: no flags, no workflow resolution, no freshness check,
// no run record, no watchdog. Two Go process starts, one exec and one
// child are what the dispatcher and a separate stratos-run cost at the
// least.
//
//	execfloor <program> [args...]
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// stageVar marks the second start: the one that runs the child.
const stageVar = "EXECFLOOR_STAGE"

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: execfloor <program> [args...]")
		os.Exit(2)
	}
	if os.Getenv(stageVar) == "" {
		if err := reexec(); err != nil {
			fmt.Fprintln(os.Stderr, "execfloor:", err)
			os.Exit(1)
		}
	}
	os.Exit(run(os.Args[1], os.Args[2:]))
}

// reexec replaces the process with a second start of its binary; it
// returns only on failure.
func reexec() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	return syscall.Exec(self, os.Args, append(os.Environ(), stageVar+"=run"))
}

// run runs the program and returns its exit status.
func run(program string, args []string) int {
	cmd := exec.Command(program, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	default:
		fmt.Fprintln(os.Stderr, "execfloor:", err)
		return 1
	}
}
