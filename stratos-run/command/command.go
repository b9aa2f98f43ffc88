// Package command implements the stratos-run CLI. Main is called by
// cmd/stratos-run and, in-process, by the testscripts module.
package command

import (
	"io"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/version"
)

// Main runs stratos-run with args (args[0] is the program name) and returns
// the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliapp.Run(newCommand(), args, cliapp.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

func newCommand() *cli.Command {
	return &cli.Command{
		Name:    "stratos-run",
		Version: version.Version,
		Usage:   "Stratos run tool",
		Commands: []*cli.Command{
			{Name: "run", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos run")},
		},
	}
}
