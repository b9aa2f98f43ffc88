// Package command implements the stratos-models CLI. Main is called by
// cmd/stratos-models and, in-process, by the testscripts module.
package command

import (
	"io"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/version"
)

// Main runs stratos-models with args (args[0] is the program name) and returns
// the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliapp.Run(newCommand(), args, cliapp.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

func newCommand() *cli.Command {
	return &cli.Command{
		Name:    "stratos-models",
		Version: version.Version,
		Usage:   "Stratos models tool",
		Commands: []*cli.Command{
			{Name: "generate", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos generate")},
			{Name: "list", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos list")},
			{Name: "show", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos show")},
			{Name: "resolve", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos resolve")},
			{Name: "candidates", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos candidates")},
		},
	}
}
