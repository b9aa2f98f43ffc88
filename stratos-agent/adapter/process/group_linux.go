package process

import "syscall"

// groupAttr puts the CLI in its own process group (so a signal reaches
// every process it started in that group) and asks the kernel to SIGTERM
// it when the agent host dies, so a killed host leaves no CLI behind.
// SIGTERM, unlike SIGKILL, lets the CLI stop its own background work.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
