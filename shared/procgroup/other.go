//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Process groups, parent-death signals and the sh watchdog are Unix
// concepts; elsewhere a child notices a vanished parent by the end of its
// stdin, and cancellation kills the child alone.
const watchdogSupported = false

func sysProcAttr(attr *syscall.SysProcAttr, _ syscall.Signal) *syscall.SysProcAttr { return attr }

func awaitExit(int) {}

type watchdog struct{}

func startWatchdog(int, syscall.Signal) (*watchdog, error) { return nil, nil }

func startPatientWatchdog(syscall.Signal, time.Duration) (*watchdog, error) { return nil, nil }

func (*watchdog) pid() int { return 0 }

func (*watchdog) tell(int) error { return nil }

func (*watchdog) stop() {}

func joinGroup(*exec.Cmd, int) {}

func groupOf(cmd *exec.Cmd) int { return cmd.Process.Pid }

func signalGroup(pid int, _ syscall.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return os.ErrProcessDone
	}
	return p.Kill()
}
