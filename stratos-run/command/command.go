// Package command implements the stratos-run CLI. Main is called by
// cmd/stratos-run and, in-process, by the testscripts module.
package command

import (
	"io"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/version"
	"github.com/stratoscli/stratos/stratos-run/mcpserve"
)

// Main runs stratos-run with args (args[0] is the program name) and returns
// the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// A run whose parent died (kill -9 of mcp serve or of a terminal)
	// still writes its record: a line on the dead parent's stderr pipe
	// must fail with EPIPE, not end the process before its status is
	// written, as Go's default for SIGPIPE on fd 1 and 2 would.
	signal.Ignore(syscall.SIGPIPE)
	return cliapp.Run(newCommand(), args, cliapp.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

// Root returns the stratos-run command tree without running it, for tools that
// read its commands and flags (the generator of docs/cli and docs/man).
func Root() *cli.Command { return newCommand() }

func newCommand() *cli.Command {
	return &cli.Command{
		Name:     "stratos-run",
		Version:  version.Version,
		Usage:    "run workflows",
		Commands: []*cli.Command{runCommand(), runsCommand(), testCommand(), serveCommand(), mcpCommand()},
	}
}

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a workflow and print its output JSON",
		UsageText: "stratos run <workflow|path> [--input JSON|@file|-] [--overrides JSON|@file] [--budget-usd N] [--budget-tokens N] [--retry N] [--detach] [--json]",
		Description: cliapp.Lines(
			"Runs the workflow (a name, or the path of its directory) in the current working directory,",
			"building it first when it is not built. Prints the output JSON on stdout and nothing else:",
			"the workflow's own console output goes to stderr. Every run is recorded in",
			"~/.stratos/runs/<execution-id>/.",
			"",
			"With --detach, builds when needed (build errors come back at once), starts the run in the",
			"background in its own session, prints its execution ID (with --json, {executionId, pid, dir})",
			"and exits 0; follow it with stratos runs logs <id> --follow. Its console output goes to",
			"console.log in its run record.",
			"",
			"With --engine temporal, the run runs on Temporal workers (docs/temporal.md); it is recorded",
			"here all the same, --detach included, and goes on on the workers if this process is killed.",
			"",
			"A budget (workflow.yaml's budget: {usd, tokens}, or the flags) cancels the run once its",
			"agents' usage crosses it; the run then fails with budget_exceeded (exit 1).",
			"",
			"Every run keeps a journal of its finished agent executes, child workflows and budget",
			"readings: stratos runs resume <id> continues a run that crashed, failed or was cancelled",
			"without repeating them, and --retry N does so by itself after a failure another attempt",
			"may get past. Each attempt is a new execution linked to the one before (resumedFrom).",
			"",
			"Exit codes: 0 success; 1 the build or the workflow failed; 2 bad arguments, unknown",
			"workflow, or input that fails the workflow's input schema; 130 interrupted (SIGINT/SIGTERM",
			"cancel the workflow and wait for its cleanup).",
		),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "input", Usage: "the workflow's input: JSON, @file, or - for stdin (default {})"},
			&cli.StringFlag{Name: "overrides", Usage: `invocation overrides: JSON or @file (JSON, or YAML when it ends in .yaml/.yml), {"agents":{<id>:{...}},"decision":{...}}`},
			&cli.FloatFlag{Name: budgetUSDFlag, Usage: "cancel the run once its agents have spent more than this many US dollars (overrides workflow.yaml's budget.usd)"},
			&cli.IntFlag{Name: budgetTokensFlag, Usage: "cancel the run once its agents have used more than this many tokens (overrides workflow.yaml's budget.tokens)"},
			&cli.IntFlag{Name: retryFlag, Usage: "resume the run up to N times after a failure another attempt may get past (model unavailable, harness crash, node died), waiting 1s, 2s, 4s, ...; finished agent work is not repeated", Validator: nonNegative(retryFlag)},
			&cli.BoolFlag{Name: "detach", Aliases: []string{"d"}, Usage: "run in the background: print the execution ID and exit 0"},
			cliapp.JSONFlag(),
			// Internal: how a detached run's background process is told its
			// ID and where to report that its record has begun.
			&cli.StringFlag{Name: engineFlag, Usage: "where to run: local (this machine) or temporal (Temporal workers, stratos worker; docs/temporal.md); default: settings.json's engine, else local"},
			&cli.StringFlag{Name: repoFlag, Usage: "with --engine temporal: the git remote that workers without this directory check the run's commit (HEAD) out from, and agents in worktrees push their branches to; default: origin's URL"},
			&cli.StringFlag{Name: executionIDFlag, Hidden: true},
			// Internal: the journal a Temporal worker retrying a run's code
			// replays (docs/design/temporal.md).
			&cli.StringFlag{Name: replayJournalFlag, Hidden: true},
			&cli.BoolFlag{Name: replayStrictFlag, Hidden: true},
			&cli.StringFlag{Name: replayCarriedFlag, Hidden: true},
			&cli.IntFlag{Name: readyFDFlag, Hidden: true},
		},
		Action: runWorkflow,
	}
}

// mcpCommand is the `stratos mcp` group as far as stratos-run owns it: the
// server that offers runs to coding agents. The dispatcher sends `stratos
// mcp serve` here and the rest of `stratos mcp` (the MCP servers workflows
// declare) to stratos-agent.
func mcpCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "workflows served to coding agents over MCP (serve)",
		Description: cliapp.Lines(
			"The MCP servers workflows declare are stratos-agent's: stratos mcp tools, login, logout",
			"and status (stratos mcp --help)."),
		Commands: []*cli.Command{mcpserve.Command()},
	}
}
