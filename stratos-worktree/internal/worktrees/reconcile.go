package worktrees

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/stratos-worktree/internal/names"
	"github.com/stratoscli/stratos/stratos-worktree/internal/registry"
)

// ReconcileResult reports what reconcile found and did, per worktree.
type ReconcileResult = worktreeapi.ReconcileResult

// Reconcile drops registrations of owners whose process is gone, applies
// cleanup to every managed worktree nobody uses and deletes trash older than
// 14 days. It takes one worktree's lock at a time; a worktree whose lock
// cannot be had in time is preserved.
func (m *Manager) Reconcile(ctx context.Context, dir string) (*ReconcileResult, error) {
	ws, err := m.open(ctx, dir)
	if err != nil {
		return nil, err
	}
	if err := ws.ensureRegistryDir(); err != nil {
		return nil, err
	}
	all, err := ws.allNames(ctx)
	if err != nil {
		return nil, err
	}
	res := &ReconcileResult{Repository: ws.root, StaleOwnersRemoved: []StaleOwner{}, Worktrees: []Settlement{}, Warnings: []Diagnostic{}}
	for i, name := range all {
		if ctx.Err() != nil {
			return nil, reconcileInterrupted(ctx, i, len(all))
		}
		s := m.reconcileOne(ctx, ws, name)
		if ctx.Err() != nil {
			// The signal arrived while this worktree was being settled: its
			// lock wait or cleanup stopped, which is not a failure to report
			// as a warning of a successful reconcile.
			return nil, reconcileInterrupted(ctx, i, len(all))
		}
		res.StaleOwnersRemoved = append(res.StaleOwnersRemoved, s.StaleOwners...)
		res.Warnings = append(res.Warnings, s.Warnings...)
		res.Worktrees = append(res.Worktrees, *s)
	}
	pruned, warnings := ws.pruneTrash()
	res.TrashPruned = pruned
	res.Warnings = append(res.Warnings, warnings...)
	return res, nil
}

// PhaseReconcile is the phase an interrupted reconcile names.
const PhaseReconcile = "reconciling worktrees"

// reconcileInterrupted is the error of a reconcile stopped by SIGINT or
// SIGTERM after settling done of total worktrees. The settled ones stay
// settled; the one in progress keeps its record whenever its cleanup was
// cut short (a failed status or removal keeps a worktree), so the next
// reconcile finishes the job.
func reconcileInterrupted(ctx context.Context, done, total int) *clierr.Error {
	ce := clierr.New(errcode.CodeInterrupted, "interrupted while %s (%d of %d settled; run reconcile again to finish)", PhaseReconcile, done, total).
		WithDetails(map[string]any{"phase": PhaseReconcile, "settled": done, "total": total}).Wrap(ctx.Err())
	ce.Exit = clierr.ExitInterrupted
	return ce
}

func (m *Manager) reconcileOne(ctx context.Context, ws *workspace, name string) *Settlement {
	s := newSettlement(ws, name)
	err := ws.locks.With(ctx, name, func() error {
		// Holding the lock, no writer of this record is running: temp files
		// are leftovers of a writer that crashed before its rename.
		if n, err := ws.store.RemoveTemps(name); err == nil && n > 0 {
			s.Warnings = append(s.Warnings, Diagnostic{Code: worktreeapi.DiagStaleTempRemoved, Name: name,
				Message: fmt.Sprintf("removed %d temp file(s) left by an interrupted registry write", n)})
		}
		rec, ok, err := ws.store.Load(name)
		if err != nil {
			s.Keep(worktreeapi.ReasonUnreadable, &Diagnostic{Code: worktreeapi.DiagRegistryUnreadable, Message: err.Error()})
			return nil
		}
		if !ok {
			rec = nil
		}
		m.settle(ctx, ws, name, rec, false, s)
		return nil
	})
	if lte, ok := errors.AsType[*registry.LockTimeoutError](err); ok {
		s.Keep(worktreeapi.ReasonLockTimout, &Diagnostic{Code: worktreeapi.DiagLockTimeout, Message: lte.Error() + "; the checkout is preserved"})
	} else if err != nil {
		s.Keep(worktreeapi.ReasonFailed, &Diagnostic{Code: worktreeapi.DiagRemoveFailed, Message: err.Error()})
	}
	return s
}

// allNames is every managed worktree: those with a record and the git
// worktrees directly under .stratos/worktrees/, sorted, without duplicates.
func (ws *workspace) allNames(ctx context.Context) ([]string, error) {
	recorded, err := ws.store.Names()
	if err != nil {
		return nil, err
	}
	managed, err := ws.managedNames(ctx)
	if err != nil {
		return nil, clierr.New(worktreeapi.CodeGitFailed, "%v", err).Wrap(err)
	}
	all := append(recorded, managed...)
	all = slices.DeleteFunc(all, func(n string) bool { return names.Validate(n) != nil })
	slices.Sort(all)
	return slices.Compact(all), nil
}
