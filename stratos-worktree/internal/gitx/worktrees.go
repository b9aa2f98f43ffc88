package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// listAttempts and listPause bound how often ListWorktrees asks git again
// when another git process is in the middle of writing a worktree's
// administrative files.
const (
	listAttempts = 5
	listPause    = 20 * time.Millisecond
)

// Worktree is one entry of `git worktree list --porcelain`.
type Worktree struct {
	Path     string
	Head     string // commit id; empty for an unborn branch
	Branch   string // full ref name, e.g. refs/heads/stratos/x; empty when detached
	Bare     bool
	Detached bool
	Locked   bool
	Prunable bool // registered, but its directory is gone
}

// ListWorktrees returns every worktree of the repository containing dir; the
// first is the main worktree.
//
// git lists without a lock, while `worktree add` writes a new worktree's
// administrative files one by one: a list that reads a half-written one
// (another agent's checkout being made) fails naming it. That failure is
// transient, so it is retried a few times, a little later each time.
func (g *Git) ListWorktrees(ctx context.Context, dir string) ([]Worktree, error) {
	pause := listPause
	for attempt := 1; ; attempt++ {
		out, err := g.Run(ctx, dir, "worktree", "list", "--porcelain", "-z")
		if err == nil {
			return parseWorktreeList(out)
		}
		if attempt == listAttempts || !halfWrittenWorktree(err) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(pause):
		}
		pause *= 2
	}
}

// halfWrittenWorktree reports whether git failed on a file of a worktree's
// administrative directory (.git/worktrees/<name>/...). Its message is
// translated with the user's locale, but the path it names is not.
func halfWrittenWorktree(err error) bool {
	var ge *Error
	return errors.As(err, &ge) && strings.Contains(ge.Stderr, "worktrees/")
}

// parseWorktreeList parses `git worktree list --porcelain -z`: attributes end
// with NUL and an empty attribute ends an entry.
func parseWorktreeList(out []byte) ([]Worktree, error) {
	var list []Worktree
	var cur *Worktree
	for _, field := range bytes.Split(out, []byte{0}) {
		line := string(field)
		if line == "" {
			cur = nil
			continue
		}
		key, value, _ := strings.Cut(line, " ")
		if key == "worktree" {
			list = append(list, Worktree{Path: value})
			cur = &list[len(list)-1]
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("git worktree list: attribute %q before any worktree line", line)
		}
		switch key {
		case "HEAD":
			// An unborn branch is listed with the all-zero object id.
			if strings.Trim(value, "0") != "" {
				cur.Head = value
			}
		case "branch":
			cur.Branch = value
		case "bare":
			cur.Bare = true
		case "detached":
			cur.Detached = true
		case "locked":
			cur.Locked = true
		case "prunable":
			cur.Prunable = true
		}
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("git worktree list printed no worktree")
	}
	return list, nil
}

// ShortBranch turns refs/heads/x into x; other names are returned unchanged.
func ShortBranch(ref string) string { return strings.TrimPrefix(ref, "refs/heads/") }

// AddNewBranch creates branch at start and checks it out at path. The branch
// gets no upstream: it starts from origin's default branch but is not that
// branch, and a plain `git push` must not target it.
func (g *Git) AddNewBranch(ctx context.Context, repo, path, branch, start string) error {
	_, err := g.Run(ctx, repo, "worktree", "add", "--no-track", "-b", branch, path, start)
	return err
}

// AddExistingBranch checks out an existing branch at path.
func (g *Git) AddExistingBranch(ctx context.Context, repo, path, branch string) error {
	_, err := g.Run(ctx, repo, "worktree", "add", path, branch)
	return err
}

// RemoveWorktree removes the checkout at path (and git's registration of it).
// Without force git itself refuses a checkout with modified or untracked
// files, a second safety net behind Stratos's own check.
func (g *Git) RemoveWorktree(ctx context.Context, repo, path string, force bool) error {
	args := []string{"worktree", "remove"}
	if force {
		args = append(args, "--force")
	}
	_, err := g.Run(ctx, repo, append(args, path)...)
	return err
}
