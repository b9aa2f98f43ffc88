package repository

import (
	"context"
	"fmt"
	"strings"
)

// fetchAgentBranches fetches the remote's agent branches into
// refs/stratos/remote/* of the checkout in dir.
func fetchAgentBranches(ctx context.Context, dir, remote string) error {
	_, err := git(ctx, networkWait, dir, "fetch the agent branches of "+remote, "fetch", "--quiet", "--no-tags", "--prune",
		remote, "+"+agentBranches+":"+remoteBranches+"*")
	return err
}

// Unsettled says why removing the run's checkout in dir would lose work
// ("" when it would not): files changed or added there (outside the
// .stratos directories), a worktree still there (one the run kept because
// it had changes), or an agent branch with commits the remote lacks. The workflow code and agents beside it
// work in this checkout; what they left on the remote is safe.
func Unsettled(ctx context.Context, dir, remote string) (string, error) {
	// What builds write in .stratos (package.json, .gitignore,
	// node_modules, the compiled workflows) is made again by any build.
	status, err := git(ctx, localWait, dir, "look for changes in "+dir, "status", "--porcelain", "--untracked-files=all",
		"--", ".", ":(glob,exclude)**/.stratos/**")
	if err != nil {
		return "", err
	}
	if status != "" {
		return "it has changes (git status: " + firstLines(status, 3) + ")", nil
	}
	worktrees, err := listWorktrees(ctx, dir)
	if err != nil {
		return "", err
	}
	if len(worktrees) > 1 {
		return "it has a worktree: " + worktrees[1].path, nil
	}
	if err := fetchAgentBranches(ctx, dir, remote); err != nil {
		return "", err
	}
	local, err := git(ctx, localWait, dir, "list the agent branches", "for-each-ref", "--format=%(refname:strip=2) %(objectname)", strings.TrimSuffix(agentBranches, "*"))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(local, "\n") {
		name, commit, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		onRemote := remoteBranches + strings.TrimPrefix(name, "stratos/")
		if _, err := git(ctx, localWait, dir, "", "merge-base", "--is-ancestor", commit, onRemote); err != nil {
			return fmt.Sprintf("its branch %s has commits %s lacks", name, remote), nil
		}
	}
	return "", nil
}

// firstLines is text's first n lines, joined by "; ", with "…" when there
// were more.
func firstLines(text string, n int) string {
	lines := strings.Split(text, "\n")
	if len(lines) <= n {
		return strings.Join(lines, "; ")
	}
	return strings.Join(lines[:n], "; ") + "; …"
}

// RemoteOf is the remote a run's checkout in dir was made from.
func RemoteOf(ctx context.Context, dir string) (string, error) {
	return git(ctx, localWait, dir, "read the remote of "+dir, "remote", "get-url", "origin")
}
