// Package worktrees implements the lifecycle of Stratos-managed git
// worktrees: acquire (create, recreate or reuse), release, reconcile, list
// and remove, with the cleanup rules of docs/design/worktrees.md. Every
// bookkeeping change happens under the worktree's own lock (package
// registry), one lock at a time.
package worktrees

import (
	"time"

	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/shared/procid"
	"github.com/stratoscli/stratos/stratos-worktree/internal/gitx"
	"github.com/stratoscli/stratos/stratos-worktree/internal/registry"
)

// Manager carries what every operation needs. The zero value of each field
// but Git means the production default.
type Manager struct {
	Git *gitx.Git
	// LockTimeout bounds the wait for a bookkeeping lock (default 5 s).
	LockTimeout time.Duration
	// Alive decides whether an owner process still runs (default procid.Alive).
	Alive func(procid.Identity) (bool, error)
}

func (m *Manager) lockTimeout() time.Duration {
	if m.LockTimeout > 0 {
		return m.LockTimeout
	}
	return registry.DefaultLockTimeout
}

func (m *Manager) alive(id procid.Identity) (bool, error) {
	if m.Alive != nil {
		return m.Alive(id)
	}
	return procid.Alive(id)
}

func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// Diagnostic is a soft problem reported beside a result (a warning).
type Diagnostic = worktreeapi.Diagnostic
