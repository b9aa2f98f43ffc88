// Package command implements the stratos-discover CLI: `list` and `resolve`.
// Main is called by cmd/stratos-discover and, in-process, by the testscripts
// module.
package command

import (
	"io"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/version"
)

// Main runs stratos-discover with args (args[0] is the program name) and
// returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliapp.Run(newCommand(), args, cliapp.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

// Root returns the stratos-discover command tree without running it, for tools that
// read its commands and flags (the generator of docs/cli and docs/man).
func Root() *cli.Command { return newCommand() }

func newCommand() *cli.Command {
	return &cli.Command{
		Name:    "stratos-discover",
		Version: version.Version,
		Usage:   "find workflows, validate their manifests and report whether they are built",
		Description: cliapp.Lines(
			"Workflows live in two discovery roots: the project root .stratos/workflows/ of the",
			"nearest ancestor directory that has a .stratos/ directory, and the user root",
			"~/.stratos/workflows/. A workflow is a directory directly under a root that has a",
			"workflow.yaml. Discovery is read-only: it never installs, compiles or runs anything.",
		),
		Commands: []*cli.Command{listCommand(), resolveCommand()},
	}
}

func rootFlags() []cli.Flag {
	return []cli.Flag{
		cliapp.JSONFlag(),
		&cli.BoolFlag{Name: "project", Usage: "only the project root"},
		&cli.BoolFlag{Name: "user", Usage: "only the user root (~/.stratos/workflows)"},
	}
}
