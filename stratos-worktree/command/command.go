// Package command implements the stratos-worktree CLI. Main is called by
// cmd/stratos-worktree and, in-process, by the testscripts module.
package command

import (
	"io"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/version"
)

// Main runs stratos-worktree with args (args[0] is the program name) and returns
// the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliapp.Run(newCommand(), args, cliapp.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

func newCommand() *cli.Command {
	return &cli.Command{
		Name:    "stratos-worktree",
		Version: version.Version,
		Usage:   "Stratos worktree tool",
		Commands: []*cli.Command{
			{Name: "acquire", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos acquire")},
			{Name: "release", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos release")},
			{Name: "list", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos list")},
			{Name: "reconcile", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos reconcile")},
			{Name: "remove", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos remove")},
		},
	}
}
