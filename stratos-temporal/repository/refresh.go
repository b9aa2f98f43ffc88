package repository

import (
	"context"
	"fmt"
	"strings"
)

// remoteBranches is where Refresh fetches the remote's agent branches to:
// a namespace of its own, so that a fetch never meets a branch a worktree
// has checked out (git refuses to move those).
const remoteBranches = "refs/stratos/remote/"

// Refresh brings the remote's agent branches (stratos/*) into the run's
// checkout in dir before an execute: another worker may have pushed to
// one since this checkout was made, and an agent continuing that branch
// here must start from the work pushed there, or its own push is
// rejected. A branch moves only forward: one no worktree has checked out
// is moved (if it is still where it was read), and one a worktree has
// checked out is merged fast-forward into that worktree when it is clean
// (its agent's work was committed and pushed after its execute). A
// branch that diverged, or a worktree with changes, is left alone: the
// push after the execute then keeps the agent's commit aside and says so.
func Refresh(ctx context.Context, dir, remote string) error {
	if err := fetchAgentBranches(ctx, dir, remote); err != nil {
		return err
	}
	refs, err := git(ctx, localWait, dir, "list the agent branches fetched", "for-each-ref", "--format=%(refname) %(objectname)", remoteBranches)
	if err != nil {
		return err
	}
	checkedOut, err := worktreeBranches(ctx, dir)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimSpace(refs), "\n") {
		ref, commit, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		branch := strings.TrimSuffix(agentBranches, "*") + strings.TrimPrefix(ref, remoteBranches)
		if err := forward(ctx, dir, branch, commit, checkedOut[branch]); err != nil {
			return err
		}
	}
	return nil
}

// forward moves branch to commit when that is a fast-forward: the ref
// itself, or, when the worktree wt has it checked out, wt by a merge when
// wt is clean.
func forward(ctx context.Context, dir, branch, commit, wt string) error {
	local, _ := git(ctx, localWait, dir, "read "+branch, "rev-parse", "--verify", "--quiet", branch)
	if local == commit {
		return nil
	}
	if local != "" {
		if _, err := git(ctx, localWait, dir, "", "merge-base", "--is-ancestor", local, commit); err != nil {
			return nil // diverged, or the local branch is ahead
		}
	}
	if wt == "" {
		_, err := git(ctx, localWait, dir, fmt.Sprintf("move %s to %s", branch, commit), "update-ref", branch, commit, local)
		return err
	}
	status, err := git(ctx, localWait, wt, "look for changes in "+wt, "status", "--porcelain")
	if err != nil || status != "" {
		return err
	}
	_, err = git(ctx, localWait, wt, fmt.Sprintf("bring %s in %s forward to %s", branch, wt, commit), "merge", "--quiet", "--ff-only", commit)
	return err
}

// worktreeBranches are the branches the checkout's worktrees have checked
// out, and where.
func worktreeBranches(ctx context.Context, dir string) (map[string]string, error) {
	list, err := listWorktrees(ctx, dir)
	if err != nil {
		return nil, err
	}
	byBranch := map[string]string{}
	for _, wt := range list {
		if wt.branch != "" {
			byBranch[wt.branch] = wt.path
		}
	}
	return byBranch, nil
}

// worktree is one entry of `git worktree list --porcelain`: the first is
// the checkout itself.
type worktree struct{ path, branch string }

func listWorktrees(ctx context.Context, dir string) ([]worktree, error) {
	out, err := git(ctx, localWait, dir, "list the worktrees of "+dir, "worktree", "list", "--porcelain")
	if err != nil {
		return nil, err
	}
	var list []worktree
	for _, line := range strings.Split(out, "\n") {
		if p, ok := strings.CutPrefix(line, "worktree "); ok {
			list = append(list, worktree{path: p})
		} else if b, ok := strings.CutPrefix(line, "branch "); ok && len(list) > 0 {
			list[len(list)-1].branch = b
		}
	}
	return list, nil
}
