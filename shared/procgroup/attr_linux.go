package procgroup

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// sysProcAttr puts the child in a group of its own (a terminal's Ctrl-C
// reaches the Stratos process only, which cancels in order) and has the
// kernel signal it when its parent dies.
func sysProcAttr(attr *syscall.SysProcAttr, death syscall.Signal) *syscall.SysProcAttr {
	if attr == nil {
		attr = &syscall.SysProcAttr{}
	}
	attr.Setpgid = true
	attr.Pdeathsig = death
	return attr
}

// awaitExit blocks until pid has exited, without reaping it.
func awaitExit(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return
		}
	}
}
