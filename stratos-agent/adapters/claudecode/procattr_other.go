//go:build unix && !linux

package claudecode

import "syscall"

// procAttr puts the CLI in its own process group, so a signal reaches every
// process it started in that group.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
