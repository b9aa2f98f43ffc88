// Package trash keeps the git-ignored files of a managed checkout that
// cleanup is about to remove. `git worktree remove` deletes ignored files
// with the checkout, and an ignored file can be the only copy of something
// an agent wrote (a .env, a local database, notes). Before a checkout is
// removed, every ignored entry outside a regenerable directory is moved to
// <git common dir>/stratos/trash/<name>-<time>/, keeping its path relative
// to the checkout; reconcile later deletes trash older than MaxAge.
package trash

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
)

// Subdir is where trash lives, relative to git's common directory.
const Subdir = "stratos/trash"

// MaxAge is how long trash is kept before reconcile deletes it.
const MaxAge = 14 * 24 * time.Hour

// timeLayout ends every trash directory name: UTC, sortable, no ':' and no
// '-' (so the last '-' of a name always starts the time).
const timeLayout = "20060102T150405.000Z"

// RegenerableDirs returns the names of directories whose ignored contents are
// deleted with a checkout rather than kept: dependency installs, build
// output and caches that a build or install recreates. A name matches at any
// depth of the checkout. This is the one list; the docs quote it.
func RegenerableDirs() []string {
	return []string{
		".cache", ".generated", ".next", ".pytest_cache", ".turbo",
		"__pycache__", "build", "coverage", "dist", "node_modules", "target",
	}
}

// Kept says where the ignored files of one removed checkout went.
type Kept = worktreeapi.TrashKept

// Keep moves the entries of ignored (slash paths relative to checkout as git
// lists them, directories with a trailing "/") that are not in a regenerable
// directory into a new directory of bin named <name>-<at>. It returns nil
// when nothing needed keeping. On error, what was moved so far is reported
// with the error: those files are in the trash, the rest still in place.
func Keep(checkout string, ignored []string, bin, name string, at time.Time) (*Kept, error) {
	var keep []string
	for _, rel := range ignored {
		if !regenerable(rel) {
			keep = append(keep, rel)
		}
	}
	if len(keep) == 0 {
		return nil, nil
	}
	slices.Sort(keep)
	if err := os.MkdirAll(bin, 0o700); err != nil {
		return nil, fmt.Errorf("create trash %s: %w", bin, err)
	}
	dir := filepath.Join(bin, name+"-"+at.UTC().Format(timeLayout))
	// 0700: ignored files are often secrets (.env).
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create trash directory: %w", err)
	}
	kept := &Kept{Path: dir, Files: []string{}}
	for _, rel := range keep {
		if err := move(checkout, dir, rel); err != nil {
			return kept, fmt.Errorf("move ignored %s of %s to %s: %w", rel, checkout, dir, err)
		}
		kept.Files = append(kept.Files, rel)
	}
	return kept, nil
}

// regenerable reports whether rel lies in (or is) a regenerable directory.
func regenerable(rel string) bool {
	isDir := strings.HasSuffix(rel, "/")
	parts := strings.Split(strings.TrimSuffix(rel, "/"), "/")
	if !isDir {
		parts = parts[:len(parts)-1]
	}
	dirs := RegenerableDirs()
	return slices.ContainsFunc(parts, func(p string) bool { return slices.Contains(dirs, p) })
}

func move(checkout, dir, rel string) error {
	local := filepath.FromSlash(strings.TrimSuffix(rel, "/"))
	dst := filepath.Join(dir, local)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	return os.Rename(filepath.Join(checkout, local), dst)
}

// Prune deletes the trash directories in bin made before cutoff and returns
// their paths, sorted. Entries whose name does not end in a trash time are
// not Stratos's and stay. A missing bin is empty.
func Prune(bin string, cutoff time.Time) ([]string, error) {
	entries, err := os.ReadDir(bin)
	if errors.Is(err, fs.ErrNotExist) {
		return []string{}, nil
	}
	if err != nil {
		return []string{}, fmt.Errorf("read trash %s: %w", bin, err)
	}
	removed := []string{}
	var errs []error
	for _, e := range entries {
		made, ok := madeAt(e.Name())
		if !e.IsDir() || !ok || !made.Before(cutoff) {
			continue
		}
		p := filepath.Join(bin, e.Name())
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, fmt.Errorf("prune trash %s: %w", p, err))
			continue
		}
		removed = append(removed, p)
	}
	return removed, errors.Join(errs...)
}

// madeAt reads the time a trash directory name ends with.
func madeAt(name string) (time.Time, bool) {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return time.Time{}, false
	}
	t, err := time.Parse(timeLayout, name[i+1:])
	return t, err == nil
}
