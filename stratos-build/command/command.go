// Package command implements the stratos-build CLI. Main is called by
// cmd/stratos-build and, in-process, by the testscripts module.
package command

import (
	"io"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/version"
)

// Main runs stratos-build with args (args[0] is the program name) and returns
// the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliapp.Run(newCommand(), args, cliapp.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

func newCommand() *cli.Command {
	return &cli.Command{
		Name:    "stratos-build",
		Version: version.Version,
		Usage:   "Stratos build tool",
		Commands: []*cli.Command{
			{Name: "build", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos build")},
			{Name: "describe", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos describe")},
			{Name: "schema", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos schema")},
			{Name: "clean", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos clean")},
			{Name: "new", Flags: []cli.Flag{cliapp.JSONFlag()}, Action: cliapp.NotImplemented("stratos new")},
		},
	}
}
