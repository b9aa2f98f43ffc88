package command

import (
	"bytes"
	"context"
	"os/exec"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/shared/procgroup"
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
		git := exec.CommandContext(ctx, "git", "-C", w.Repository, "branch", "-D", w.Branch)
		var out bytes.Buffer
		git.Stdout, git.Stderr = &out, &out
		if err := procgroup.Run(git, procgroup.Options{}); err != nil {
			log.Warn("the case's branch is left in place", "branch", w.Branch, "repository", w.Repository, "error", strings.TrimSpace(out.String()))
			continue
		}
		log.Info("removed the case's worktree and branch", "worktree", w.Name, "path", res.Path, "branch", w.Branch)
	}
}

// worktreeWarnings gathers the worktree tool's warnings over a suite's
// cases, which the agent host does not print in a case (its worktrees are
// the case's own, removed when it ends): each code is logged once, after
// the cases, with the first case that had it and how many did. Every
// warning stays in its case's run record (worktree.acquired and
// worktree.released events).
type worktreeWarnings struct {
	codes []string // in order of first appearance
	first map[string]worktreeapi.Diagnostic
	in    map[string]string // the first case, by code
	cases map[string]int    // how many cases had it, by code
}

func (w *worktreeWarnings) add(testCase string, diags []worktreeapi.Diagnostic) {
	seen := map[string]bool{}
	for _, d := range diags {
		if seen[d.Code] {
			continue
		}
		seen[d.Code] = true
		if w.first == nil {
			w.first, w.in, w.cases = map[string]worktreeapi.Diagnostic{}, map[string]string{}, map[string]int{}
		}
		if _, ok := w.first[d.Code]; !ok {
			w.codes = append(w.codes, d.Code)
			w.first[d.Code], w.in[d.Code] = d, testCase
		}
		w.cases[d.Code]++
	}
}

func (w *worktreeWarnings) report(log hclog.Logger) {
	for _, code := range w.codes {
		log.Warn(w.first[code].Message, "code", code, "case", w.in[code], "cases", w.cases[code])
	}
}
