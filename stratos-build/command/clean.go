package command

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/roots"
	"github.com/stratoscli/stratos/stratos-build/pipeline"
)

func cleanCommand() *cli.Command {
	return &cli.Command{
		Name:      "clean",
		Usage:     "remove generated wrappers, compiled output and build records",
		UsageText: "stratos clean [<workflow>|--name <workflow>] [--json]",
		Description: cliapp.Lines(
			"Without a workflow, cleans the whole project root, leftovers of deleted workflows",
			"included. With one, cleans that workflow and invalidates the builds of the workflows",
			"that depend on it. Authored files, node_modules, the shared SDK and credentials are",
			"never touched; the next build regenerates everything.",
		),
		Flags:  []cli.Flag{cliapp.JSONFlag(), nameFlag()},
		Action: runClean,
	}
}

func runClean(ctx context.Context, cmd *cli.Command) error {
	target, err := targetArg(cmd)
	if err != nil {
		return err
	}
	s, err := session(cmd)
	if err != nil {
		return err
	}
	var res *pipeline.CleanResult
	if target != "" {
		w, root, err := discovery.Resolve(s.Cwd, target, roots.Both)
		if err != nil {
			return err
		}
		res, err = pipeline.CleanWorkflow(root, w)
		if err != nil {
			return clierr.New("clean_failed", "clean %s: %v", w.Manifest.Name, err)
		}
	} else {
		pr, ok, err := roots.ProjectRoot(s.Cwd)
		if err != nil {
			return clierr.New("roots_unresolved", "%v", err)
		}
		if !ok {
			return clierr.Usage("no_project", "%s is not inside a Stratos project (no .stratos/ directory here or above); name a workflow to clean", s.Cwd)
		}
		res, err = pipeline.CleanRoot(pr.Dir)
		if err != nil {
			return clierr.New("clean_failed", "clean %s: %v", pr.Dir, err)
		}
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, res)
	}
	for _, p := range res.Removed {
		fmt.Fprintln(cmd.Root().Writer, "removed", p)
	}
	for _, n := range res.Invalidated {
		fmt.Fprintln(cmd.Root().Writer, "invalidated", n)
	}
	if len(res.Removed)+len(res.Invalidated) == 0 {
		fmt.Fprintln(cmd.Root().Writer, "nothing to clean")
	}
	return nil
}
