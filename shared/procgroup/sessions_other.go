//go:build !linux

package procgroup

import "syscall"

// NoteSessions notes nothing without /proc (see Sessions).
func NoteSessions(int) Sessions { return Sessions{} }

// Update notes nothing without /proc (see Sessions).
func (*Sessions) Update(int) {}

func (Sessions) leaderRuns() bool { return false }

func (Sessions) members() []proc { return nil }

type proc struct{ pid int }

func (proc) signal(syscall.Signal) bool { return false }

// Watch follows nothing without /proc (see Sessions).
type Watch struct{}

// WatchChildren follows nothing without /proc.
func WatchChildren(int) *Watch { return &Watch{} }

// Look finds nothing without /proc.
func (*Watch) Look(*Sessions) int { return 0 }
