//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
	"syscall"
)

// Process groups, parent-death signals and the sh watchdog are Unix
// concepts; elsewhere a child notices a vanished parent by the end of its
// stdin, and cancellation kills the child alone.
const watchdogSupported = false

func sysProcAttr(attr *syscall.SysProcAttr, _ syscall.Signal) *syscall.SysProcAttr { return attr }

func awaitExit(int) {}

func startWatchdog(int, syscall.Signal) (*exec.Cmd, *os.File, error) { return nil, nil, nil }

func signalGroup(pid int, _ syscall.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return os.ErrProcessDone
	}
	return p.Kill()
}
