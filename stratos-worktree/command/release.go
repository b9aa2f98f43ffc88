package command

import (
	"context"
	"fmt"
	"io"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/stratos-worktree/internal/worktrees"
)

func (t *tool) releaseCommand() *cli.Command {
	return &cli.Command{
		Name:      "release",
		Usage:     "drop an owner's use of a worktree; clean up when no live owner remains",
		UsageText: "stratos-worktree release (NAME | --name NAME) --owner ID [--repo DIR] [--json]",
		Description: cliapp.Lines(
			"Cleanup removes only a clean, unprotected checkout and keeps its branch; its git-ignored files",
			"outside regenerable directories (node_modules, dist, …) are first moved to",
			"<git dir>/stratos/trash/<name>-<time>/ (reported as \"trash\"). A dirty checkout,",
			"one still used by a live owner, or one whose lock cannot be had within 5 s is preserved;",
			"that is reported as a warning and the command still exits 0.",
		),
		Flags: []cli.Flag{
			cliapp.JSONFlag(),
			repoFlag(),
			nameFlag("worktree name, same as the positional NAME"),
			&cli.StringFlag{Name: "owner", Required: true, Usage: "owner id given to acquire"},
		},
		Action: t.runRelease,
	}
}

func (t *tool) runRelease(ctx context.Context, cmd *cli.Command) error {
	name, err := worktreeName(cmd, true)
	if err != nil {
		return err
	}
	res, err := t.mgr.Release(ctx, worktrees.ReleaseRequest{Dir: cmd.String("repo"), Name: name, Owner: cmd.String("owner")})
	if err != nil {
		return err
	}
	t.warn(res.Warnings)
	return emit(cmd, res, func(w io.Writer) { fmt.Fprintln(w, settlementLine(&res.Settlement)) })
}

// settlementLine says in one line what cleanup decided for a worktree.
func settlementLine(s *worktrees.Settlement) string {
	branch := ""
	if s.Branch != "" {
		branch = fmt.Sprintf(" (branch %s kept)", s.Branch)
	}
	switch s.Outcome {
	case worktreeapi.OutcomeRemoved:
		return fmt.Sprintf("%s: checkout removed%s", s.Name, branch)
	case worktreeapi.OutcomeAbsent:
		return fmt.Sprintf("%s: no checkout; bookkeeping dropped", s.Name)
	default:
		return fmt.Sprintf("%s: checkout kept (%s)", s.Name, s.Reason)
	}
}
