//go:build unix

package claudecode

import "syscall"

// signalGroup sends sig to the process group the CLI leads.
func signalGroup(pid int, sig syscall.Signal) error {
	return syscall.Kill(-pid, sig)
}
