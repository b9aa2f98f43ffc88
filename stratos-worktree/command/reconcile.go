package command

import (
	"context"
	"fmt"
	"io"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
)

func (t *tool) reconcileCommand() *cli.Command {
	return &cli.Command{
		Name:      "reconcile",
		Usage:     "drop registrations of dead owners and clean up worktrees nobody uses",
		UsageText: "stratos-worktree reconcile [--repo DIR] [--json]",
		Description: cliapp.Lines(
			"An owner is dead when its process is gone or its pid now belongs to a process with",
			"another start time. Worktrees without a live owner get the same cleanup as release.",
			"Trash older than 14 days (ignored files cleanup kept, in <git dir>/stratos/trash) is deleted.",
		),
		Flags:  []cli.Flag{cliapp.JSONFlag(), repoFlag()},
		Action: t.runReconcile,
	}
}

func (t *tool) runReconcile(ctx context.Context, cmd *cli.Command) error {
	if err := noArgs(cmd); err != nil {
		return err
	}
	res, err := t.mgr.Reconcile(ctx, cmd.String("repo"))
	if err != nil {
		return err
	}
	t.warn(res.Warnings)
	return emit(cmd, res, func(w io.Writer) {
		for _, o := range res.StaleOwnersRemoved {
			fmt.Fprintf(w, "%s: dropped stale owner %s (pid %d)\n", o.Name, o.ID, o.PID)
		}
		for i := range res.Worktrees {
			fmt.Fprintln(w, settlementLine(&res.Worktrees[i]))
		}
		for _, p := range res.TrashPruned {
			fmt.Fprintf(w, "deleted old trash %s\n", p)
		}
	})
}
