package worktrees

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/stratos-worktree/internal/trash"
)

// keepIgnored moves the ignored, non-regenerable files of the checkout at
// path to the repository's trash (see package trash) and says where they
// went; nil when there were none.
func (ws *workspace) keepIgnored(ctx context.Context, name, path string) (*trash.Kept, error) {
	ignored, err := ws.git.Ignored(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("list ignored files: %w", err)
	}
	return trash.Keep(path, ignored, ws.trashDir(), name, now())
}

// trashDir is <git common dir>/stratos/trash, beside the registry and, like
// it, out of reach of `git clean -x`.
func (ws *workspace) trashDir() string {
	return filepath.Join(ws.commonDir, filepath.FromSlash(trash.Subdir))
}

// keptDiagnostic tells that ignored files were moved rather than deleted.
func keptDiagnostic(name, path string, kept *trash.Kept) Diagnostic {
	return Diagnostic{Code: worktreeapi.DiagIgnoredKept, Name: name, Message: fmt.Sprintf(
		"moved %d ignored entr%s of %s to %s before removing the checkout (%s); trash older than %d days is deleted by reconcile",
		len(kept.Files), plural(len(kept.Files), "y", "ies"), path, kept.Path, fileSample(kept.Files), int(trash.MaxAge.Hours()/24))}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// pruneTrash deletes trash older than trash.MaxAge; problems are warnings.
func (ws *workspace) pruneTrash() ([]string, []Diagnostic) {
	removed, err := trash.Prune(ws.trashDir(), now().Add(-trash.MaxAge))
	if err != nil {
		return removed, []Diagnostic{{Code: worktreeapi.DiagTrashPruneFailed, Message: err.Error()}}
	}
	return removed, nil
}
