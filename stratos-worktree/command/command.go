// Package command implements the stratos-worktree CLI (also reached as
// `stratos worktree …`): acquire, release, list, reconcile and remove managed
// git worktrees. Main is called by cmd/stratos-worktree and, in-process, by
// the testscripts module. The work itself is in internal/worktrees; this
// package maps flags to requests and results to stdout.
package command

import (
	"io"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/shared/logging"
	"github.com/stratoscli/stratos/shared/version"
	"github.com/stratoscli/stratos/stratos-worktree/internal/gitx"
	"github.com/stratoscli/stratos/stratos-worktree/internal/worktrees"
)

const toolName = "stratos-worktree"

// Main runs stratos-worktree with args (args[0] is the program name) and
// returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	log := logging.New(toolName, stderr)
	return cliapp.Run(newCommand(log), args, cliapp.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

// Root returns the stratos-worktree command tree without running it, for tools that
// read its commands and flags (the generator of docs/cli and docs/man).
func Root() *cli.Command { return newCommand(hclog.NewNullLogger()) }

func newCommand(log hclog.Logger) *cli.Command {
	t := &tool{log: log, mgr: &worktrees.Manager{Git: &gitx.Git{Log: log}}}
	return &cli.Command{
		Name:    toolName,
		Version: version.Version,
		Usage:   "manage the git worktrees Stratos gives to agents",
		Description: cliapp.Lines(
			"Managed checkouts live in <repository>/.stratos/worktrees/<name>/ on branch stratos/<name>.",
			"Owners register their use with acquire and drop it with release; when no live owner",
			"remains, a clean checkout is removed (its branch is always kept) and a dirty one is",
			"preserved. Stratos never merges, resets or discards changes.",
		),
		Commands: []*cli.Command{t.acquireCommand(), t.releaseCommand(), t.listCommand(), t.reconcileCommand(), t.removeCommand()},
	}
}

// tool holds what every action shares.
type tool struct {
	log hclog.Logger
	mgr *worktrees.Manager
}

func repoFlag() cli.Flag {
	return &cli.StringFlag{Name: "repo", Value: ".", Usage: "any directory inside the git repository"}
}

// nameFlag is --name, which the positional NAME replaces: people type
// `acquire fix-login` as they type `git worktree add DIR`, the agent host
// and scripts write --name.
func nameFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "name", Usage: usage}
}

// worktreeName is the name given as the one positional argument or with
// --name; "" when neither was given and required is false.
func worktreeName(cmd *cli.Command, required bool) (string, error) {
	name, args := cmd.String("name"), cmd.Args()
	switch {
	case args.Len() > 1:
		return "", clierr.Usage(errcode.CodeUsage, "%s takes one worktree name, got %d arguments (%s): usage: %s",
			cmd.Name, args.Len(), strings.Join(args.Slice(), " "), cmd.UsageText)
	case args.Len() == 1 && name != "":
		return "", clierr.Usage(errcode.CodeUsage, "give the worktree name either as an argument (%s) or with --name (%s), not both",
			args.First(), name)
	case (args.Len() == 1 && args.First() == "") || (args.Len() == 0 && cmd.IsSet("name") && name == ""):
		// A name given empty (`acquire "$NAME"` with NAME unset) is not "no
		// name": taken as none, acquire drew a fresh one and handed out a
		// worktree nobody asked for.
		return "", clierr.Usage(worktreeapi.CodeInvalidName, "worktree name is empty").WithDetails(map[string]any{"name": ""})
	case args.Len() == 1:
		return args.First(), nil
	case required && name == "":
		return "", clierr.Usage(errcode.CodeUsage, "%s needs a worktree name: usage: %s", cmd.Name, cmd.UsageText)
	}
	return name, nil
}

// noArgs refuses positional arguments of a command that takes none.
func noArgs(cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return clierr.Usage(errcode.CodeUsage, "%s takes no arguments, got %q: usage: %s", cmd.Name, cmd.Args().First(), cmd.UsageText)
	}
	return nil
}

// warn logs diagnostics on stderr (they are in the JSON result too).
func (t *tool) warn(diags []worktreeapi.Diagnostic) {
	for _, d := range diags {
		t.log.Warn(d.Message, "code", d.Code)
	}
}

// emit prints result as JSON with --json, else calls text.
func emit(cmd *cli.Command, result any, text func(w io.Writer)) error {
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, result)
	}
	text(cmd.Root().Writer)
	return nil
}
