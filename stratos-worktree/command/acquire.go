package command

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/stratos-worktree/internal/worktrees"
)

func (t *tool) acquireCommand() *cli.Command {
	return &cli.Command{
		Name:      "acquire",
		Usage:     "create, recreate or reuse a managed worktree and register a use of it",
		UsageText: "stratos-worktree acquire [NAME | --name NAME] [--repo DIR] [--owner ID [--owner-pid PID]] [--cleanup=false] [--json]",
		Description: cliapp.Lines(
			"Without a name a fresh adjective-noun name is drawn. With a name an existing checkout is",
			"reused unchanged; a missing checkout is recreated from branch stratos/NAME if it exists;",
			"otherwise a new branch starts from refs/remotes/origin/HEAD (never fetched), or from",
			"local HEAD with a warning. Prints the checkout path (or the JSON result with --json).",
		),
		Flags: []cli.Flag{
			cliapp.JSONFlag(),
			repoFlag(),
			nameFlag("worktree name, same as the positional NAME (default: a fresh adjective-noun name)"),
			&cli.StringFlag{Name: "owner", Usage: "register a use by this owner id (release drops it: release NAME --owner ID)"},
			&cli.IntFlag{Name: "owner-pid", HideDefault: true, Usage: "process that holds the use (default: the parent of this process)"},
			&cli.BoolFlag{Name: "cleanup", Value: true, Usage: "false protects the checkout from automatic cleanup, for good"},
		},
		Action: t.runAcquire,
	}
}

func (t *tool) runAcquire(ctx context.Context, cmd *cli.Command) error {
	name, err := worktreeName(cmd, false)
	if err != nil {
		return err
	}
	pid := cmd.Int("owner-pid")
	if pid == 0 {
		// The agent host executes this tool directly, and `stratos worktree`
		// execs it in place, so the parent is the process that holds the use.
		pid = os.Getppid()
	}
	res, err := t.mgr.Acquire(ctx, worktrees.AcquireRequest{
		Dir: cmd.String("repo"), Name: name, Owner: cmd.String("owner"), OwnerPID: pid, Cleanup: cmd.Bool("cleanup"),
	})
	if err != nil {
		return err
	}
	t.warn(res.Warnings)
	return emit(cmd, res, func(w io.Writer) { fmt.Fprintln(w, res.Path) })
}
