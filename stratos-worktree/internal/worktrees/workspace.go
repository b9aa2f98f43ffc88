package worktrees

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/stratos-worktree/internal/gitx"
	"github.com/stratoscli/stratos/stratos-worktree/internal/registry"
)

// ManagedDirName is where checkouts live, relative to the repository root.
const ManagedDirName = ".stratos/worktrees"

// registrySubdir is where records and locks live, relative to git's common
// directory: beside git's own worktree bookkeeping, out of reach of
// `git clean -x` and of agents editing files in the repository.
const registrySubdir = "stratos/worktrees"

// workspace is the repository an operation works on, resolved once.
type workspace struct {
	root      string // the main worktree: "the repository"
	commonDir string // git's common directory (usually <root>/.git)
	managed   string // <root>/.stratos/worktrees
	dir       string // the directory the caller named, symlinks resolved
	// byFiles says the layout was understood from git's files (see
	// gitx.FindLayout), so single checkouts may be checked without git.
	byFiles   bool
	worktrees []gitx.Worktree // git's list, read on first need
	store     *registry.Store
	locks     *registry.Locks
	git       *gitx.Git
}

// open resolves dir (any directory inside the repository, including inside a
// managed checkout) to the repository's main worktree. The common layouts are
// read from git's files; anything else is asked of git.
func (m *Manager) open(ctx context.Context, dir string) (*workspace, error) {
	if dir == "" {
		return nil, clierr.Usage(errcode.CodeUsage, "--repo is required: a directory inside the git repository")
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, clierr.Usage(worktreeapi.CodeRepositoryNotFound, "repository directory %s does not exist or is not a directory", dir).
			WithDetails(map[string]any{"repo": dir})
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, clierr.Usage(worktreeapi.CodeRepositoryNotFound, "repository directory %s does not exist or is not a directory", abs).
			WithDetails(map[string]any{"repo": abs})
	}
	ws := &workspace{dir: abs, git: m.Git}
	if layout, err := gitx.FindLayout(abs); err == nil {
		ws.root, ws.commonDir, ws.byFiles = layout.Root, layout.CommonDir, true
	} else if err := ws.openWithGit(ctx, abs); err != nil {
		return nil, err
	}
	regDir := filepath.Join(ws.commonDir, registrySubdir)
	ws.managed = filepath.Join(ws.root, ManagedDirName)
	ws.store = &registry.Store{Dir: regDir}
	ws.locks = &registry.Locks{Dir: regDir, Timeout: m.lockTimeout()}
	return ws, nil
}

func (ws *workspace) openWithGit(ctx context.Context, abs string) error {
	list, err := ws.git.ListWorktrees(ctx, abs)
	if err != nil {
		return clierr.Usage(worktreeapi.CodeNotAGitRepository, "%s is not inside a git repository: %v", abs, err).
			WithDetails(map[string]any{"repo": abs}).Wrap(err)
	}
	if list[0].Bare {
		return clierr.Usage(worktreeapi.CodeBareRepository, "%s belongs to the bare repository %s; managed worktrees need a repository with a main worktree", abs, list[0].Path).
			WithDetails(map[string]any{"repo": abs})
	}
	ws.root, ws.worktrees = list[0].Path, list
	ws.commonDir, err = commonDirOf(ws.root)
	if err != nil {
		return clierr.New(worktreeapi.CodeGitLayout, "%v", err).Wrap(err)
	}
	return nil
}

// commonDirOf finds git's common directory from the main worktree's .git,
// which is either the directory itself or a file "gitdir: <path>" (a
// repository made with --separate-git-dir, or a submodule).
func commonDirOf(root string) (string, error) {
	dotGit := filepath.Join(root, ".git")
	fi, err := os.Stat(dotGit)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", dotGit, err)
	}
	if fi.IsDir() {
		return dotGit, nil
	}
	data, err := gitx.ReadFile(dotGit)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", dotGit, err)
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s is neither a directory nor a \"gitdir:\" file", dotGit)
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(root, target)
	}
	return filepath.Clean(target), nil
}

// list returns git's worktree list, reading it on first use.
func (ws *workspace) list(ctx context.Context) ([]gitx.Worktree, error) {
	if ws.worktrees == nil {
		if err := ws.refresh(ctx); err != nil {
			return nil, err
		}
	}
	return ws.worktrees, nil
}

// current returns the worktree whose directory holds the directory the
// caller named (the deepest one, since managed checkouts sit inside the main
// worktree).
func (ws *workspace) current(ctx context.Context) (*gitx.Worktree, error) {
	list, err := ws.list(ctx)
	if err != nil {
		return nil, err
	}
	best := &list[0]
	for i := range list {
		w := &list[i]
		if (ws.dir == w.Path || strings.HasPrefix(ws.dir, w.Path+string(filepath.Separator))) && len(w.Path) > len(best.Path) {
			best = w
		}
	}
	return best, nil
}

func (ws *workspace) checkoutPath(name string) string { return filepath.Join(ws.managed, name) }

func (ws *workspace) find(path string) *gitx.Worktree {
	for i := range ws.worktrees {
		if filepath.Clean(ws.worktrees[i].Path) == path {
			return &ws.worktrees[i]
		}
	}
	return nil
}

// refresh re-reads git's worktree list: another process may have changed it
// since open.
func (ws *workspace) refresh(ctx context.Context) error {
	list, err := ws.git.ListWorktrees(ctx, ws.root)
	if err != nil {
		return fmt.Errorf("list worktrees of %s: %w", ws.root, err)
	}
	ws.worktrees = list
	return nil
}

// managedNames returns the names of git worktrees directly under the managed
// directory.
func (ws *workspace) managedNames(ctx context.Context) ([]string, error) {
	list, err := ws.list(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, w := range list {
		if filepath.Dir(filepath.Clean(w.Path)) == ws.managed {
			names = append(names, filepath.Base(w.Path))
		}
	}
	return names, nil
}

// ensureRegistryDir creates the directory holding records and lock files.
func (ws *workspace) ensureRegistryDir() error {
	if err := os.MkdirAll(ws.store.Dir, 0o755); err != nil {
		return clierr.New(worktreeapi.CodeRegistryUnwritable, "create registry directory %s: %v", ws.store.Dir, err).Wrap(err)
	}
	return nil
}

// gitignoreBody hides everything under .stratos/worktrees/ (the checkouts and
// this file itself) from the repository's own `git status`.
const gitignoreBody = "# Managed by Stratos: checkouts of managed worktrees, not part of this repository.\n*\n"

// ensureManagedDir creates .stratos/worktrees/ with its .gitignore.
func (ws *workspace) ensureManagedDir() error {
	if err := os.MkdirAll(ws.managed, 0o755); err != nil {
		return clierr.New(worktreeapi.CodeManagedDirUnwritable, "create %s: %v", ws.managed, err).Wrap(err)
	}
	ignore := filepath.Join(ws.managed, ".gitignore")
	if _, err := os.Stat(ignore); err == nil || !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err := atomicfile.WriteFile(ignore, []byte(gitignoreBody), atomicfile.Public); err != nil {
		return clierr.New(worktreeapi.CodeManagedDirUnwritable, "%v", err).Wrap(err)
	}
	return nil
}
