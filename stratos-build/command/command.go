// Package command implements the stratos-build CLI: build, describe,
// schema, clean, new, and the internal prepare used by stratos-run. Main is
// called by cmd/stratos-build and, in-process, by the testscripts module.
package command

import (
	"context"
	"io"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/logging"
	"github.com/stratoscli/stratos/shared/roots"
	"github.com/stratoscli/stratos/shared/settings"
	"github.com/stratoscli/stratos/shared/version"
	"github.com/stratoscli/stratos/stratos-build/pipeline"
)

// Main runs stratos-build with args (args[0] is the program name) and
// returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliapp.Run(newCommand(stderr), args, cliapp.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

// Root returns the stratos-build command tree without running it, for tools that
// read its commands and flags (the generator of docs/cli and docs/man).
func Root() *cli.Command { return newCommand(io.Discard) }

func newCommand(stderr io.Writer) *cli.Command {
	return &cli.Command{
		Name:    "stratos-build",
		Version: version.Version,
		Usage:   "build, describe, clean and scaffold workflows",
		Commands: []*cli.Command{
			buildCommand(), describeCommand(), schemaCommand(), cleanCommand(), newWorkflowCommand(), prepareCommand(),
		},
	}
}

// session returns a preparation session for the invocation.
func session(cmd *cli.Command) (*pipeline.Session, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, clierr.New(discoverapi.CodeCwdUnreadable, "read working directory: %v", err)
	}
	limits, err := buildSettings()
	if err != nil {
		return nil, err
	}
	return &pipeline.Session{
		Log: logging.New("stratos", cmd.Root().ErrWriter), Stderr: cmd.Root().ErrWriter, Cwd: cwd,
		DefinitionTimeout: limits.DefinitionTimeout,
	}, nil
}

// buildSettings reads the build section of ~/.stratos/settings.json; a
// bad file is a usage error naming the file and the key.
func buildSettings() (settings.Build, error) {
	home, err := roots.StratosHome()
	if err != nil {
		return settings.Build{}, clierr.New(buildapi.CodeHomeUnresolved, "%v", err)
	}
	s, err := settings.Load(settings.Path(home))
	if err != nil {
		return settings.Build{}, err
	}
	return s.Build, nil
}

// targetArg returns the workflow named by the positional argument or
// --name; "" means none was given.
func targetArg(cmd *cli.Command) (string, error) {
	name := cmd.String("name")
	switch {
	case cmd.Args().Len() > 1:
		return "", clierr.Usage(errcode.CodeUsage, "usage: %s", cmd.UsageText)
	case cmd.Args().Len() == 1 && name != "":
		return "", clierr.Usage(errcode.CodeUsage, "give the workflow either as an argument or with --name, not both")
	case cmd.Args().Len() == 1 && cmd.Args().First() == "", cmd.IsSet("name") && name == "":
		// An empty workflow (`stratos clean "$WF"` with WF unset) is a
		// mistake, not "none": taken as none it built, or cleaned, the
		// whole project root.
		return "", clierr.Usage(errcode.CodeUsage, "the workflow is empty: give a workflow name or path (usage: %s)", cmd.UsageText)
	case cmd.Args().Len() == 1:
		return cmd.Args().First(), nil
	}
	return name, nil
}

func nameFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "name", Usage: "the workflow to work on (same as the positional argument)"}
}

// prepareRequired prepares the one workflow the command requires (argument
// or --name) and turns a failed preparation into a build_failed error.
// needsDefinition is set by the commands that print the workflow's
// definition (see pipeline.Session.NeedsDefinition).
func prepareRequired(ctx context.Context, cmd *cli.Command, needsDefinition bool) (*pipeline.Outcome, error) {
	target, err := targetArg(cmd)
	if err != nil {
		return nil, err
	}
	if target == "" {
		return nil, clierr.Usage(errcode.CodeUsage, "usage: %s", cmd.UsageText)
	}
	s, err := session(cmd)
	if err != nil {
		return nil, err
	}
	s.NeedsDefinition = needsDefinition
	out, err := s.PrepareTarget(ctx, target)
	if err != nil {
		return nil, err
	}
	if out.Target.Failed() {
		return nil, buildFailedError(out)
	}
	return out, nil
}

// buildFailedError reports a failed preparation of the requested workflow.
func buildFailedError(out *pipeline.Outcome) error {
	t := out.Target
	msg := "build of " + t.Name + " failed (" + t.Reason + ")"
	if len(t.Diagnostics) > 0 {
		msg += ": " + t.Diagnostics[0].Message
	}
	return clierr.New(buildapi.CodeBuildFailed, "%s", msg).WithDetails(map[string]any{"results": out.Results, "warnings": nonNil(out.Warnings)})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
