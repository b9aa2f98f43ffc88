// Package command implements the stratos-agent CLI. Main is called by
// cmd/stratos-agent and, in-process, by the testscripts module.
package command

import (
	"context"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/version"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/agentconfig"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
	"github.com/stratoscli/stratos/stratos-agent/skill"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Main runs stratos-agent with args (args[0] is the program name) and returns
// the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliapp.Run(newCommand(), args, cliapp.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

// Root returns the stratos-agent command tree without running it, for tools that
// read its commands and flags (the generator of docs/cli and docs/man).
func Root() *cli.Command { return newCommand() }

func newCommand() *cli.Command {
	return &cli.Command{
		Name:    "stratos-agent",
		Version: version.Version,
		Usage:   "Stratos agent tool",
		Commands: []*cli.Command{
			serveCommand(),
			validateConfigCommand(),
			checkDecisionCommand(),
			toolsCommand(harnesses.Builtin),
			mcpCommand(),
			providerCommand(),
			skill.Command(),
		},
	}
}

// toolsCommand is `stratos tools list [harness] [--json]`: the static
// built-in tool mappings of this Stratos version (no harness is started),
// read from the harnesses register registers.
func toolsCommand(register func(adapter.Options) []adapter.Harness) *cli.Command {
	reg, err := harnesses.New(register(adapter.Options{})...)
	names := "[harness]"
	if err == nil {
		names = "[" + strings.Join(toolHarnesses(reg), "|") + "]"
	}
	return &cli.Command{
		Name:  "tools",
		Usage: "list the built-in tool names of each harness",
		Commands: []*cli.Command{{
			Name:      "list",
			Usage:     "print the names allowedTools/disallowedTools accept, per harness",
			ArgsUsage: names,
			Description: cliapp.Lines(
				"Lists, for each harness (or the one named), the built-in tool names that agents may",
				"select with allowedTools and disallowedTools, their native counterparts, and the",
				"always-on names that selection cannot remove. Canonical names are shared by two or",
				"more harnesses; the others are that harness's own names. Names are case-sensitive."),
			Flags: []cli.Flag{cliapp.JSONFlag()},
			Action: func(ctx context.Context, cmd *cli.Command) error {
				if err != nil {
					return clierr.New(errcode.CodeInternal, "harness registrations: %v", err).Wrap(err)
				}
				return listTools(cmd, reg.Tools(), names)
			},
		}},
	}
}

// toolHarnesses are the names of the harnesses with built-in tools.
func toolHarnesses(reg *harnesses.Registry) []string {
	var out []string
	for _, h := range reg.Tools().Harnesses() {
		out = append(out, string(h))
	}
	return out
}

func listTools(cmd *cli.Command, table *tools.Table, names string) error {
	if err := cliapp.ExactArgs(cmd, 0, 1, names+" [--json]"); err != nil {
		return err
	}
	hs := table.Harnesses()
	if name := cmd.Args().First(); name != "" {
		d, err := table.Harness(name)
		if err != nil {
			return clierr.Usage(agentapi.CodeUnknownHarness, "%v", err).WithDetails(map[string]any{"harness": name})
		}
		hs = []tools.Harness{d.Harness}
	}
	listing := table.List(hs...)
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, listing)
	}
	return tools.WriteText(cmd.Root().Writer, listing)
}

// builtinValidator checks agent configurations against the built-in
// harnesses.
func builtinValidator() (*agentconfig.Validator, error) {
	reg, err := harnesses.New(harnesses.Builtin(adapter.Options{})...)
	if err != nil {
		return nil, err
	}
	return agentconfig.NewValidator(reg.Names(), reg.Tools())
}
