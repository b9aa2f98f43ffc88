//go:build !linux

package procgroup

import "syscall"

// DieWithParent does nothing where the kernel has no parent-death signal;
// such a process notices its parent's end by the end of its stdin.
func DieWithParent(syscall.Signal) (parentGone bool, err error) { return false, nil }
