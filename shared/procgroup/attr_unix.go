//go:build unix && !linux

package procgroup

import "syscall"

// sysProcAttr puts the child in a group of its own. Without a parent-death
// signal, the watchdog (or the child's own end-of-stdin handling) notices a
// vanished parent.
func sysProcAttr(attr *syscall.SysProcAttr, _ syscall.Signal) *syscall.SysProcAttr {
	if attr == nil {
		attr = &syscall.SysProcAttr{}
	}
	attr.Setpgid = true
	return attr
}

// awaitExit returns at once: the group is killed after the child is reaped.
func awaitExit(int) {}
