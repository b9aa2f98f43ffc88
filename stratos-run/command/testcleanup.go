package command

import (
	"context"
	"os/exec"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/shared/toolcall"
	"github.com/stratoscli/stratos/stratos-run/testcases"
)

// removeCreatedWorktrees removes what a case's run added to repositories:
// each worktree its agents' acquires created (checkout, changes and
// registration: the case scripted them) and the branch when the acquire
// made it. A checkout the run was handed that existed before, a user's
// own, is not touched. A failure is a warning: the case's result stands.
func removeCreatedWorktrees(ctx context.Context, created []testcases.Worktree, log hclog.Logger) {
	for _, w := range created {
		var res worktreeapi.RemoveResult
		err := toolcall.Run(ctx, toolcall.Call{Tool: worktreeapi.Tool,
			Args: []string{"remove", "--name", w.Name, "--repo", w.Repository, "--force", "--json"}}, &res)
		if err != nil {
			log.Warn("the case's worktree is left in place (stratos test --keep keeps them on purpose)", "worktree", w.Name, "repository", w.Repository, "error", err)
			continue
		}
		if w.Branch == "" || strings.HasPrefix(w.Branch, "-") {
			log.Info("removed the case's worktree", "worktree", w.Name, "path", res.Path)
			continue
		}
		out, err := exec.CommandContext(ctx, "git", "-C", w.Repository, "branch", "-D", w.Branch).CombinedOutput()
		if err != nil {
			log.Warn("the case's branch is left in place", "branch", w.Branch, "repository", w.Repository, "error", strings.TrimSpace(string(out)))
			continue
		}
		log.Info("removed the case's worktree and branch", "worktree", w.Name, "path", res.Path, "branch", w.Branch)
	}
}
