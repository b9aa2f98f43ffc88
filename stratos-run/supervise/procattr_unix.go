//go:build unix && !linux

package supervise

import "syscall"

// procAttr puts node in its own process group. Without a parent-death
// signal, the runner notices a vanished stratos run by the end of its stdin.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
