//go:build !linux

package procgroup

import "syscall"

// NoteSessions notes nothing without /proc (see Sessions).
func NoteSessions(int) Sessions { return Sessions{} }

func (Sessions) leaderRuns() bool { return false }

func (Sessions) members() []proc { return nil }

type proc struct{ pid int }

func (proc) signal(syscall.Signal) bool { return false }
