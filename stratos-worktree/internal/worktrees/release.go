package worktrees

import (
	"context"
	"errors"
	"fmt"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/stratos-worktree/internal/names"
	"github.com/stratoscli/stratos/stratos-worktree/internal/registry"
)

// ReleaseRequest drops one owner's use of a worktree.
type ReleaseRequest struct {
	Dir, Name, Owner string
}

// ReleaseResult reports the release and what cleanup decided.
type ReleaseResult = worktreeapi.ReleaseResult

// Release drops req.Owner's registration and, when no live owner remains,
// applies cleanup. Cleanup problems (dirty checkout, lock timeout, failed
// removal) are soft: they preserve the checkout and come back as warnings.
func (m *Manager) Release(ctx context.Context, req ReleaseRequest) (*ReleaseResult, error) {
	if err := names.Validate(req.Name); err != nil {
		return nil, clierr.Usage(worktreeapi.CodeInvalidName, "%v", err).WithDetails(map[string]any{"name": req.Name})
	}
	if err := validateOwnerID(req.Owner); err != nil {
		return nil, err
	}
	ws, err := m.open(ctx, req.Dir)
	if err != nil {
		return nil, err
	}
	if err := ws.ensureRegistryDir(); err != nil {
		return nil, err
	}
	res := &ReleaseResult{Repository: ws.root, Settlement: *newSettlement(ws, req.Name)}
	s := &res.Settlement
	err = ws.locks.With(ctx, req.Name, func() error {
		rec, ok, err := ws.store.Load(req.Name)
		if err != nil {
			s.Keep(worktreeapi.ReasonUnreadable, &Diagnostic{Code: worktreeapi.DiagRegistryUnreadable, Message: err.Error()})
			return nil
		}
		if ok {
			res.Released = rec.RemoveOwner(req.Owner)
		}
		if !res.Released {
			s.Warnings = append(s.Warnings, Diagnostic{Code: worktreeapi.DiagNotRegistered, Name: req.Name,
				Message: fmt.Sprintf("owner %q had no registered use of worktree %q", req.Owner, req.Name)})
		}
		if !ok {
			rec = nil
		}
		m.settle(ctx, ws, req.Name, rec, res.Released, s)
		return nil
	})
	if lte, ok := errors.AsType[*registry.LockTimeoutError](err); ok {
		s.Keep(worktreeapi.ReasonLockTimout, &Diagnostic{Code: worktreeapi.DiagLockTimeout, Message: lte.Error() + "; the checkout is preserved and the owner stays registered until a later release or reconcile"})
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}
