//go:build unix && !linux

package process

import "syscall"

// groupAttr puts the CLI in its own process group, so a signal reaches
// every process it started in that group. Without Linux's parent-death
// signal, a killed host relies on the CLI exiting when its stdin closes.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
