//go:build unix

package process

import "syscall"

// signalGroup sends sig to the process group pid leads.
func signalGroup(pid int, sig syscall.Signal) error {
	return syscall.Kill(-pid, sig)
}
