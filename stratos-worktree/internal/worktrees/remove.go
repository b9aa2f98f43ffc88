package worktrees

import (
	"context"
	"errors"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/stratos-worktree/internal/gitx"
	"github.com/stratoscli/stratos/stratos-worktree/internal/names"
	"github.com/stratoscli/stratos/stratos-worktree/internal/registry"
)

// RemoveRequest asks for explicit removal of a managed worktree.
type RemoveRequest struct {
	Dir, Name string
	Force     bool // remove even a dirty checkout or one with live owners
}

// RemoveResult reports an explicit removal.
type RemoveResult = worktreeapi.RemoveResult

// Remove ends a checkout's lifecycle: the checkout (if any) and the record,
// protection and owners included. The branch is kept. Without Force it
// refuses a dirty checkout and one that live owners still use.
func (m *Manager) Remove(ctx context.Context, req RemoveRequest) (*RemoveResult, error) {
	if err := names.Validate(req.Name); err != nil {
		return nil, clierr.Usage(worktreeapi.CodeInvalidName, "%v", err).WithDetails(map[string]any{"name": req.Name})
	}
	ws, err := m.open(ctx, req.Dir)
	if err != nil {
		return nil, err
	}
	if err := ws.ensureRegistryDir(); err != nil {
		return nil, err
	}
	res := &RemoveResult{Repository: ws.root, Name: req.Name, Path: ws.checkoutPath(req.Name), Warnings: []Diagnostic{}}
	err = ws.locks.With(ctx, req.Name, func() error { return m.removeLocked(ctx, ws, req, res) })
	if lte, ok := errors.AsType[*registry.LockTimeoutError](err); ok {
		return nil, clierr.New(worktreeapi.CodeLockTimeout, "%v", lte).WithDetails(map[string]any{"name": req.Name, "lock": lte.Path})
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (m *Manager) removeLocked(ctx context.Context, ws *workspace, req RemoveRequest, res *RemoveResult) error {
	rec, hasRec, loadErr := ws.store.Load(req.Name)
	if loadErr != nil && !req.Force {
		return clierr.New(worktreeapi.CodeRegistryUnreadable, "%v (use --force to remove anyway)", loadErr).Wrap(loadErr)
	}
	state, entry, err := ws.classify(ctx, req.Name)
	if err != nil {
		return err
	}
	if rec != nil {
		res.Branch = rec.Branch
	}
	switch state {
	case stateConflict:
		return ws.conflictError(req.Name)
	case stateAbsent:
		if !hasRec && loadErr == nil {
			return clierr.New(worktreeapi.CodeWorktreeNotFound, "no managed worktree %q in %s", req.Name, ws.root).
				WithDetails(map[string]any{"name": req.Name, "repository": ws.root})
		}
	case stateStaleRegistration:
		if err := ws.git.RemoveWorktree(ctx, ws.root, res.Path, false); err != nil {
			return clierr.New(worktreeapi.CodeRemoveFailed, "clear git's stale registration of %s: %v", res.Path, err).
				WithDetails(map[string]any{"name": req.Name, "path": res.Path}).Wrap(err)
		}
	case stateCheckedOut:
		res.Branch = gitx.ShortBranch(entry.Branch)
		if err := m.removeCheckout(ctx, ws, req, rec, res); err != nil {
			return err
		}
		res.CheckoutRemoved = true
	}
	if err := ws.store.Delete(req.Name); err != nil {
		return clierr.New(worktreeapi.CodeRegistryUnwritable, "%v", err).Wrap(err)
	}
	res.RegistrationRemoved = hasRec || loadErr != nil
	return nil
}

func (m *Manager) removeCheckout(ctx context.Context, ws *workspace, req RemoveRequest, rec *registry.Record, res *RemoveResult) error {
	if !req.Force {
		if rec != nil {
			s := newSettlement(ws, req.Name)
			m.dropStaleOwners(req.Name, rec, s)
			if len(s.LiveOwners) > 0 {
				return clierr.New(worktreeapi.CodeWorktreeInUse, "worktree %q is in use by %v; use --force to remove it anyway", req.Name, s.LiveOwners).
					WithDetails(map[string]any{"name": req.Name, "liveOwners": s.LiveOwners})
			}
		}
		changes, err := ws.git.Status(ctx, res.Path)
		if err != nil {
			return clierr.New(worktreeapi.CodeGitFailed, "%v", err).Wrap(err)
		}
		if changes.Dirty() {
			return clierr.New(worktreeapi.CodeWorktreeDirty, "%s; use --force to remove it and lose those changes", describeChanges(res.Path, changes)).
				WithDetails(map[string]any{"name": req.Name, "path": res.Path, "changes": changes})
		}
	}
	kept, err := ws.keepIgnored(ctx, req.Name, res.Path)
	res.Trash = kept
	if kept != nil {
		res.Warnings = append(res.Warnings, keptDiagnostic(req.Name, res.Path, kept))
	}
	if err != nil {
		return clierr.New(worktreeapi.CodeRemoveFailed, "checkout %s preserved: %v", res.Path, err).
			WithDetails(map[string]any{"name": req.Name, "path": res.Path}).Wrap(err)
	}
	if err := ws.git.RemoveWorktree(ctx, ws.root, res.Path, req.Force); err != nil {
		return clierr.New(worktreeapi.CodeRemoveFailed, "remove %s: %v", res.Path, err).
			WithDetails(map[string]any{"name": req.Name, "path": res.Path}).Wrap(err)
	}
	return nil
}
