package gitx

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/boundedread"
)

// This file reads git's on-disk worktree bookkeeping directly, the same
// files `git worktree list` reads, so that the frequent cases (resolving the
// repository, checking that a managed checkout is a valid worktree) cost no
// git process. Every function answers only what it can be sure of; callers
// fall back to the git commands on ErrUnsure.

// MaxFileBytes bounds the small files of git's bookkeeping read here (a
// .git file, gitdir, commondir, HEAD, a loose ref): each holds a path or
// an object ID (docs/files.md).
const MaxFileBytes = 64 << 10

// ReadFile reads one of those files: a regular file of at most
// MaxFileBytes. The repository is the user's, and a FIFO or a device in
// place of one of them would block or never end.
func ReadFile(path string) ([]byte, error) {
	return boundedread.RegularFile(path, MaxFileBytes)
}

// ErrUnsure means the layout is not one these readers handle (reftable refs,
// core.worktree, unusual .git files); ask git instead.
var ErrUnsure = errors.New("repository layout needs git to interpret")

// Layout is a repository located from the file system.
type Layout struct {
	Root      string // the main worktree
	CommonDir string // git's common directory
}

// FindLayout walks up from dir to the nearest .git and resolves the main
// worktree and common directory.
func FindLayout(dir string) (Layout, error) {
	for d := dir; ; {
		if looksLikeGitDir(d) {
			// Inside a git directory or a bare repository: git's rules
			// for those are its own.
			return Layout{}, ErrUnsure
		}
		dotGit := filepath.Join(d, ".git")
		fi, err := os.Lstat(dotGit)
		if err == nil {
			return layoutAt(d, dotGit, fi)
		}
		if !errors.Is(err, os.ErrNotExist) {
			return Layout{}, ErrUnsure
		}
		parent := filepath.Dir(d)
		if parent == d {
			return Layout{}, ErrUnsure
		}
		d = parent
	}
}

func looksLikeGitDir(d string) bool {
	for _, p := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(d, p)); err != nil {
			return false
		}
	}
	return true
}

func layoutAt(worktree, dotGit string, fi os.FileInfo) (Layout, error) {
	gitDir := dotGit
	if !fi.IsDir() {
		target, err := readGitdirFile(dotGit)
		if err != nil {
			return Layout{}, ErrUnsure
		}
		gitDir = target
	}
	common := gitDir
	linked := false
	if data, err := ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = resolve(gitDir, strings.TrimSpace(string(data)))
		linked = true
	}
	if !plainCommonDir(common) {
		return Layout{}, ErrUnsure
	}
	root := worktree
	if linked {
		// A linked worktree's main worktree is where the common directory's
		// .git sits; any other arrangement is left to git.
		if filepath.Base(common) != ".git" {
			return Layout{}, ErrUnsure
		}
		root = filepath.Dir(common)
	}
	return Layout{Root: root, CommonDir: common}, nil
}

// plainCommonDir accepts a common directory these readers understand: files
// refs (not reftable) and no core.worktree / core.bare settings that move
// the main worktree.
func plainCommonDir(common string) bool {
	if _, err := os.Stat(filepath.Join(common, "HEAD")); err != nil {
		return false
	}
	if _, err := os.Stat(filepath.Join(common, "reftable")); err == nil {
		return false
	}
	f, err := os.Open(filepath.Join(common, "config"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.ToLower(strings.Join(strings.Fields(sc.Text()), ""))
		if strings.HasPrefix(line, "worktree=") || strings.HasPrefix(line, "bare=true") || strings.HasPrefix(line, "refstorage=") {
			return false
		}
	}
	return sc.Err() == nil
}

// CheckoutAt reports the worktree of the repository with common directory
// common that is checked out at path: ok=false when path is not a valid
// worktree of it according to the files (the caller then asks git). The
// Head of a checkout on a branch is resolved from loose or packed refs and
// left empty if neither has it.
func CheckoutAt(common, path string) (wt Worktree, ok bool) {
	dotGit := filepath.Join(path, ".git")
	adminDir, err := readGitdirFile(dotGit)
	if err != nil || filepath.Dir(adminDir) != filepath.Join(common, "worktrees") {
		return Worktree{}, false
	}
	back, err := ReadFile(filepath.Join(adminDir, "gitdir"))
	if err != nil || resolve(adminDir, strings.TrimSpace(string(back))) != dotGit {
		return Worktree{}, false
	}
	head, err := ReadFile(filepath.Join(adminDir, "HEAD"))
	if err != nil {
		return Worktree{}, false
	}
	wt = Worktree{Path: path}
	if _, err := os.Stat(filepath.Join(adminDir, "locked")); err == nil {
		wt.Locked = true
	}
	if ref, isRef := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: "); isRef {
		wt.Branch = ref
		wt.Head = resolveRef(common, ref)
	} else {
		wt.Detached, wt.Head = true, strings.TrimSpace(string(head))
	}
	return wt, true
}

// RegisteredAt reports whether git still has a worktree registered at path
// (whose directory may be gone): some <common>/worktrees/<id>/gitdir names
// path/.git.
func RegisteredAt(common, path string) (bool, error) {
	admin := filepath.Join(common, "worktrees")
	entries, err := os.ReadDir(admin)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", admin, err)
	}
	want := filepath.Join(path, ".git")
	for _, e := range entries {
		dir := filepath.Join(admin, e.Name())
		back, err := ReadFile(filepath.Join(dir, "gitdir"))
		if err == nil && resolve(dir, strings.TrimSpace(string(back))) == want {
			return true, nil
		}
	}
	return false, nil
}

// readGitdirFile reads a ".git" file: "gitdir: <path>", relative to the
// file's directory when not absolute.
func readGitdirFile(dotGit string) (string, error) {
	data, err := ReadFile(dotGit)
	if err != nil {
		return "", err
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s is not a gitdir file", dotGit)
	}
	return resolve(filepath.Dir(dotGit), strings.TrimSpace(target)), nil
}

func resolve(base, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// resolveRef reads ref from loose refs, then packed-refs.
func resolveRef(common, ref string) string {
	if data, err := ReadFile(filepath.Join(common, filepath.FromSlash(ref))); err == nil {
		v := strings.TrimSpace(string(data))
		if !strings.HasPrefix(v, "ref:") {
			return v
		}
		return ""
	}
	f, err := os.Open(filepath.Join(common, "packed-refs"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if id, name, ok := strings.Cut(sc.Text(), " "); ok && name == ref {
			return id
		}
	}
	return ""
}
