//go:build unix

package supervise

import "syscall"

// killGroup kills every process left in the runner's process group (its ID
// is the runner's PID). A group with no process left is not an error.
func killGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}
