// Package command implements the stratos-models CLI. Main is called by
// cmd/stratos-models and, in-process, by the testscripts module.
package command

import (
	"io"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/shared/version"
	"github.com/stratoscli/stratos/stratos-models/internal/lookup"
)

// Main runs stratos-models with args (args[0] is the program name) and returns
// the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliapp.Run(newCommand(), args, cliapp.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

// Root returns the stratos-models command tree without running it, for tools that
// read its commands and flags (the generator of docs/cli and docs/man).
func Root() *cli.Command { return newCommand() }

func newCommand() *cli.Command {
	return &cli.Command{
		Name:    "stratos-models",
		Version: version.Version,
		Usage:   "the model catalog: canonical Models.dev IDs, provider-native IDs, harness candidates",
		Commands: []*cli.Command{
			generateCommand(),
			listCommand(),
			showCommand(),
			resolveCommand(),
			candidatesCommand(),
			mappingCommand(),
		},
	}
}

// embedded loads the catalog and provider mapping shipped in the binary.
// Failing here means the binary was built from broken data.
func embedded() (*lookup.Data, error) {
	d, err := lookup.Embedded()
	if err != nil {
		return nil, clierr.New(modelsapi.CodeCatalogInvalid, "embedded model data is invalid: %v", err).Wrap(err)
	}
	return d, nil
}

// printJSON writes v as the command's one JSON document.
func printJSON(cmd *cli.Command, v any) error {
	if err := clierr.PrintJSON(cmd.Root().Writer, v); err != nil {
		return clierr.New(modelsapi.CodeWriteFailed, "write output: %v", err).Wrap(err)
	}
	return nil
}
