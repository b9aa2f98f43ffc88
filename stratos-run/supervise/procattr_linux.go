package supervise

import "syscall"

// procAttr puts node in its own process group (a terminal's Ctrl-C reaches
// stratos run only, which cancels in order) and has the kernel kill it when
// stratos run dies, even by SIGKILL.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
