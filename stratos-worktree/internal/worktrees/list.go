package worktrees

import (
	"context"

	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/stratos-worktree/internal/gitx"
	"github.com/stratoscli/stratos/stratos-worktree/internal/registry"
)

// ListResult is every managed worktree of a repository, sorted by name.
type ListResult = worktreeapi.ListResult

// ListEntry describes one managed worktree.
type ListEntry = worktreeapi.ListEntry

// OwnerStatus is a registered owner and whether its process still runs.
type OwnerStatus = worktreeapi.OwnerStatus

var stateNames = map[checkoutState]string{
	stateAbsent: "absent", stateCheckedOut: "checkedOut", stateStaleRegistration: "staleRegistration", stateConflict: "conflict",
}

// List reports the managed worktrees. It only reads (no locks, no changes):
// records are replaced atomically, so a reader never sees a partial one.
func (m *Manager) List(ctx context.Context, dir string) (*ListResult, error) {
	ws, err := m.open(ctx, dir)
	if err != nil {
		return nil, err
	}
	all, err := ws.allNames(ctx)
	if err != nil {
		return nil, err
	}
	res := &ListResult{Repository: ws.root, Worktrees: []ListEntry{}, Warnings: []Diagnostic{}}
	for _, name := range all {
		e, warn := m.listEntry(ctx, ws, name)
		res.Worktrees = append(res.Worktrees, e)
		res.Warnings = append(res.Warnings, warn...)
	}
	return res, nil
}

func (m *Manager) listEntry(ctx context.Context, ws *workspace, name string) (ListEntry, []Diagnostic) {
	var warn []Diagnostic
	e := ListEntry{Name: name, Path: ws.checkoutPath(name), Owners: []OwnerStatus{}}
	rec, ok, err := ws.store.Load(name)
	if err != nil {
		warn = append(warn, Diagnostic{Code: worktreeapi.DiagRegistryUnreadable, Name: name, Message: err.Error()})
	}
	if ok {
		m.describeRecord(rec, &e)
	}
	state, entry, err := ws.classify(ctx, name)
	if err != nil {
		return e, append(warn, Diagnostic{Code: worktreeapi.DiagStatusFailed, Name: name, Message: err.Error()})
	}
	e.State = stateNames[state]
	if state != stateCheckedOut {
		return e, warn
	}
	e.CheckedOut, e.Head, e.Detached = true, entry.Head, entry.Branch == ""
	e.Branch = gitx.ShortBranch(entry.Branch)
	changes, err := ws.git.Status(ctx, e.Path)
	if err != nil {
		return e, append(warn, Diagnostic{Code: worktreeapi.DiagStatusFailed, Name: name, Message: err.Error()})
	}
	e.Dirty = changes.Dirty()
	if e.Dirty {
		e.Changes = &changes
	}
	return e, warn
}

func (m *Manager) describeRecord(rec *registry.Record, e *ListEntry) {
	e.Registered, e.Protected, e.Branch = true, rec.Protected, rec.Branch
	for _, o := range rec.Owners {
		live, err := m.alive(o.Identity())
		e.Owners = append(e.Owners, OwnerStatus{ID: o.ID, PID: o.PID, StartTime: o.StartTime, AcquiredAt: o.AcquiredAt, Live: live || err != nil})
	}
}
