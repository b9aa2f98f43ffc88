package command

import (
	"context"
	"fmt"
	"io"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/stratos-worktree/internal/worktrees"
)

func (t *tool) removeCommand() *cli.Command {
	return &cli.Command{
		Name:      "remove",
		Usage:     "remove a managed worktree explicitly, ending its protection (the branch is kept)",
		UsageText: "stratos-worktree remove (NAME | --name NAME) [--repo DIR] [--force] [--json]",
		Description: cliapp.Lines(
			"Refuses a checkout with staged, unstaged or untracked changes, or one a live owner still",
			"uses, unless --force (which discards those changes). The branch stratos/NAME is never deleted.",
		),
		Flags: []cli.Flag{
			cliapp.JSONFlag(),
			repoFlag(),
			nameFlag("worktree name, same as the positional NAME"),
			&cli.BoolFlag{Name: "force", Usage: "remove even a dirty checkout or one in use"},
		},
		Action: t.runRemove,
	}
}

func (t *tool) runRemove(ctx context.Context, cmd *cli.Command) error {
	name, err := worktreeName(cmd, true)
	if err != nil {
		return err
	}
	res, err := t.mgr.Remove(ctx, worktrees.RemoveRequest{Dir: cmd.String("repo"), Name: name, Force: cmd.Bool("force")})
	if err != nil {
		return err
	}
	t.warn(res.Warnings)
	return emit(cmd, res, func(w io.Writer) {
		switch {
		case res.CheckoutRemoved && res.Branch != "":
			fmt.Fprintf(w, "%s: checkout removed (branch %s kept)\n", res.Name, res.Branch)
		case res.CheckoutRemoved:
			fmt.Fprintf(w, "%s: checkout removed\n", res.Name)
		default:
			fmt.Fprintf(w, "%s: registration removed (no checkout)\n", res.Name)
		}
	})
}
