package command

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/roots"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/stratos-build/pipeline"
)

func cleanCommand() *cli.Command {
	return &cli.Command{
		Name:      "clean",
		Usage:     "remove generated wrappers, compiled output and build records",
		UsageText: "stratos clean [<workflow>|--name <workflow>] [--sdk] [--json]",
		Description: cliapp.Lines(
			"Without a workflow, cleans the whole project root, leftovers of deleted workflows",
			"included. With one, cleans that workflow and invalidates the builds of the workflows",
			"that depend on it. Authored files, node_modules, the shared SDK and credentials are",
			"never touched; the next build regenerates everything. With --sdk, the root's installed",
			"SDK (node_modules/@stratoscli/stratos) is removed too; the next build installs it again.",
		),
		Flags: []cli.Flag{cliapp.JSONFlag(), nameFlag(), &cli.BoolFlag{
			Name: "sdk", Usage: "also remove the root's installed SDK (node_modules/@stratoscli/stratos)",
		}},
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
	rootDir, clean, err := cleaner(s, target)
	if err != nil {
		return err
	}
	var res *pipeline.CleanResult
	// Holding the root's build lock: a build running meanwhile would
	// otherwise lose the output and records it is writing.
	err = pipeline.WithRootLock(ctx, rootDir, s.Log, func() error {
		if res, err = clean(); err != nil {
			return err
		}
		if cmd.Bool("sdk") {
			return removeSDK(rootDir, res)
		}
		return nil
	})
	if err != nil {
		return err
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

// cleaner resolves what clean was asked to clean: the discovery root's
// directory and the clean to run there under its build lock.
func cleaner(s *pipeline.Session, target string) (string, func() (*pipeline.CleanResult, error), error) {
	if target != "" {
		w, root, err := discovery.Resolve(s.Cwd, target, roots.Both)
		if err != nil {
			return "", nil, err
		}
		return root.Root.Dir, func() (*pipeline.CleanResult, error) {
			res, err := pipeline.CleanWorkflow(root, w)
			if err != nil {
				return nil, clierr.New(buildapi.CodeCleanFailed, "clean %s: %v", w.Manifest.Name, err)
			}
			return res, nil
		}, nil
	}
	pr, ok, err := roots.ProjectRoot(s.Cwd)
	if err != nil {
		return "", nil, clierr.New(discoverapi.CodeRootsUnresolved, "%v", err)
	}
	if !ok {
		return "", nil, clierr.Usage(buildapi.CodeNoProject, "%s is not inside a Stratos project (no .stratos/ directory here or above); name a workflow to clean", s.Cwd)
	}
	return pr.Dir, func() (*pipeline.CleanResult, error) {
		res, err := pipeline.CleanRoot(pr.Dir)
		if err != nil {
			return nil, clierr.New(buildapi.CodeCleanFailed, "clean %s: %v", pr.Dir, err)
		}
		return res, nil
	}, nil
}

// removeSDK removes the SDK installed in rootDir, the one thing clean
// otherwise never touches: for an installation suspected damaged.
func removeSDK(rootDir string, res *pipeline.CleanResult) error {
	removed, err := sdk.Remove(rootDir)
	if err != nil {
		return clierr.New(buildapi.CodeCleanFailed, "remove the SDK installed in %s: %v", rootDir, err)
	}
	if removed {
		res.Removed = append(res.Removed, sdk.InstalledDir(rootDir))
	}
	return nil
}
