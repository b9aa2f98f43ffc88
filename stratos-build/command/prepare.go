package command

import (
	"context"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
)

// prepareCommand is the entry point stratos-run uses: the same preparation
// as build, for one workflow, answering where its compiled entry is.
func prepareCommand() *cli.Command {
	return &cli.Command{
		Name:      "prepare",
		Usage:     "prepare one workflow for running (used by stratos-run)",
		UsageText: "stratos-build prepare <workflow> --json",
		Hidden:    true,
		Flags:     []cli.Flag{cliapp.JSONFlag(), nameFlag()},
		Action:    runPrepare,
	}
}

// Prepared is the JSON contract of `stratos-build prepare --json`.
type Prepared = buildapi.Prepared

func runPrepare(ctx context.Context, cmd *cli.Command) error {
	out, err := prepareRequired(ctx, cmd, false)
	if err != nil {
		return err
	}
	w := out.Target.Workflow()
	return clierr.PrintJSON(cmd.Root().Writer, Prepared{
		Name: w.Manifest.Name, Dir: w.Dir, Root: string(w.Root.Kind), RootDir: w.Root.Dir,
		Status: out.Target.Status, CompiledEntry: filepath.Join(w.Dir, filepath.FromSlash(out.Target.CompiledEntry)),
		Manifest: w.Manifest, Warnings: nonNil(out.Warnings),
	})
}
