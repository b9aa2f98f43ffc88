package worktrees

import (
	"context"
	"errors"
	"os"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/stratos-worktree/internal/gitx"
)

// checkoutState is what is found at a managed checkout path.
type checkoutState int

const (
	// stateAbsent: nothing at the path and git knows no worktree there.
	stateAbsent checkoutState = iota
	// stateCheckedOut: a valid worktree of this repository.
	stateCheckedOut
	// stateStaleRegistration: git still lists a worktree there, but its
	// directory is gone (someone deleted it by hand).
	stateStaleRegistration
	// stateConflict: something that is not a worktree of this repository.
	stateConflict
)

// classify looks at name's checkout path. The files git keeps for its
// worktrees answer the common cases; whenever they do not confirm a valid
// checkout or a clean absence, git's own list decides (it is read again, as
// another process may have changed it since this operation began).
func (ws *workspace) classify(ctx context.Context, name string) (checkoutState, *gitx.Worktree, error) {
	path := ws.checkoutPath(name)
	_, statErr := os.Lstat(path)
	if statErr != nil && !errors.Is(statErr, os.ErrNotExist) {
		return 0, nil, clierr.New(worktreeapi.CodeCheckoutUnreadable, "inspect %s: %v", path, statErr).Wrap(statErr)
	}
	exists := statErr == nil
	if ws.byFiles {
		if exists {
			if wt, ok := gitx.CheckoutAt(ws.commonDir, path); ok {
				return stateCheckedOut, &wt, nil
			}
		} else if registered, err := gitx.RegisteredAt(ws.commonDir, path); err == nil && !registered {
			return stateAbsent, nil, nil
		}
	}
	if err := ws.refresh(ctx); err != nil {
		return 0, nil, clierr.New(worktreeapi.CodeGitFailed, "%v", err).Wrap(err)
	}
	entry := ws.find(path)
	switch {
	case exists && entry != nil && !entry.Prunable:
		return stateCheckedOut, entry, nil
	case exists:
		return stateConflict, nil, nil
	case entry != nil:
		return stateStaleRegistration, entry, nil
	default:
		return stateAbsent, nil, nil
	}
}

func (ws *workspace) conflictError(name string) *clierr.Error {
	path := ws.checkoutPath(name)
	return clierr.New(worktreeapi.CodePathConflict,
		"%s exists but is not a worktree of %s; Stratos leaves it untouched: move it away or use another name", path, ws.root).
		WithDetails(map[string]any{"name": name, "path": path, "repository": ws.root})
}
