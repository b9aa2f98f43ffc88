package command

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/stratos-worktree/internal/worktrees"
)

func (t *tool) listCommand() *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list managed worktrees with branch, owners, protection and dirty state",
		UsageText: "stratos-worktree list [--repo DIR] [--json]",
		Flags:     []cli.Flag{cliapp.JSONFlag(), repoFlag()},
		Action:    t.runList,
	}
}

func (t *tool) runList(ctx context.Context, cmd *cli.Command) error {
	if err := noArgs(cmd); err != nil {
		return err
	}
	res, err := t.mgr.List(ctx, cmd.String("repo"))
	if err != nil {
		return err
	}
	t.warn(res.Warnings)
	return emit(cmd, res, func(w io.Writer) { writeListTable(w, res) })
}

func writeListTable(w io.Writer, res *worktrees.ListResult) {
	if len(res.Worktrees) == 0 {
		fmt.Fprintf(w, "no managed worktrees in %s\n", res.Repository)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tBRANCH\tSTATE\tDIRTY\tPROTECTED\tOWNERS")
	for _, e := range res.Worktrees {
		branch := e.Branch
		if e.Detached {
			branch = "(detached)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Name, branch, e.State, yesNo(e.Dirty), yesNo(e.Protected), ownersText(e.Owners))
	}
	tw.Flush()
}

func ownersText(owners []worktrees.OwnerStatus) string {
	if len(owners) == 0 {
		return "-"
	}
	parts := make([]string, len(owners))
	for i, o := range owners {
		status := "live"
		if !o.Live {
			status = "stale"
		}
		parts[i] = fmt.Sprintf("%s(pid %d, %s)", o.ID, o.PID, status)
	}
	return strings.Join(parts, " ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
