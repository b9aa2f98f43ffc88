// Package cliapp runs a urfave/cli command under the Stratos CLI contract:
// errors become the JSON envelope on stdout (with --json) or one line on
// stderr, and map to the shared exit codes. Every tool's Main goes through
// Run so that the contract cannot drift between tools.
package cliapp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp/invokedas"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/toolcall"
)

// IO bundles a process's standard streams, so commands can be run in-process
// by tests and the dispatcher without touching the real ones.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Run executes cmd with args (args[0] is the program name) and returns the
// exit code. SIGINT/SIGTERM cancel the context passed to actions. Run by
// another tool, the tool first checks that it speaks its caller's version
// of the tool-call protocol (toolcall.Accept), before its command does
// anything.
func Run(cmd *cli.Command, args []string, stdio IO) int {
	if err := toolcall.Accept(cmd.Name); err != nil {
		return report(cmd, args, stdio, clierr.As(err))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return RunContext(ctx, cmd, args, stdio)
}

// InvokedAsEnv is how the stratos dispatcher tells the tool it starts
// what the user typed for it: "<tool>=<words>", e.g. "stratos-run=stratos"
// for `stratos run …` and "stratos-models=stratos models" for `stratos
// models …`. The tool then names itself that way in its errors, usage
// hints and help ("stratos: …", "see stratos run --help"), not by a
// binary name the user never typed. The tool's name is part of the value
// because the variable reaches the tools it starts in turn, which must
// keep their own names.
const InvokedAsEnv = invokedas.Env

// invokedAs is the name tool goes by for the user: the words the
// dispatcher passed for it, else its own name.
func invokedAs(tool string) string {
	named, words, ok := strings.Cut(os.Getenv(InvokedAsEnv), "=")
	if !ok || named != tool || strings.TrimSpace(words) == "" {
		return tool
	}
	return words
}

// WithInvokedAs is env with InvokedAsEnv saying that tool runs as words
// (what the user typed for it), replacing a value inherited from a caller.
// The dispatcher sets it for the tool it execs, and a tool that hands the
// user's command over to another (stratos run to stratos-temporal) passes
// on its own name as shown.
func WithInvokedAs(env []string, tool, words string) []string {
	return invokedas.With(env, tool, words)
}

// RunContext is Run with a caller-supplied context.
func RunContext(ctx context.Context, cmd *cli.Command, args []string, stdio IO) int {
	cmd.Name = invokedAs(cmd.Name)
	cmd.Reader, cmd.Writer, cmd.ErrWriter = stdio.Stdin, stdio.Stdout, stdio.Stderr
	// urfave/cli would otherwise call os.Exit itself for ExitCoder errors.
	cmd.ExitErrHandler = func(context.Context, *cli.Command, error) {}
	quietUsageErrors(cmd)
	if ce := unknownCommand(cmd, args); ce != nil {
		return report(cmd, args, stdio, ce)
	}
	err := cmd.Run(ctx, args)
	if err == nil {
		return clierr.ExitOK
	}
	var silent *SilentError
	if errors.As(err, &silent) {
		return silent.Code
	}
	var ce *clierr.Error
	if !errors.As(err, &ce) {
		if ctx.Err() != nil {
			ce = &clierr.Error{Code: errcode.CodeInterrupted, Message: "interrupted", Exit: clierr.ExitInterrupted}
		} else {
			// Anything that is not ours comes from flag parsing or argument
			// checks inside urfave/cli: a usage error.
			ce = &clierr.Error{Code: errcode.CodeUsage, Message: err.Error(), Exit: clierr.ExitUsage, Err: err}
		}
	}
	if ctx.Err() != nil {
		ce = asInterrupted(ce)
	}
	return report(cmd, args, stdio, ce)
}

// unknownCommand is the usage error of a first argument that names no
// command of a tool that only has commands. urfave/cli answered "No help
// topic for 'nosuch'", and with --json complained of the flag instead
// ("flag provided but not defined: -json"), never of the command.
func unknownCommand(cmd *cli.Command, args []string) *clierr.Error {
	if cmd.Action != nil || len(cmd.Commands) == 0 || len(args) < 2 {
		return nil
	}
	name := args[1]
	if strings.HasPrefix(name, "-") || name == "help" || name == "h" || cmd.Command(name) != nil {
		return nil
	}
	return clierr.Usage(errcode.CodeUsage, "unknown command %q (see %s --help)", name, cmd.Name)
}

// report writes ce as the JSON envelope on stdout with --json, else as one
// line on stderr, and returns its exit code.
func report(cmd *cli.Command, args []string, stdio IO, ce *clierr.Error) int {
	if WantsJSON(args) {
		_ = clierr.WriteJSON(stdio.Stdout, ce)
	} else {
		clierr.WriteText(stdio.Stderr, cmd.Name, ce)
	}
	return ce.Exit
}

// asInterrupted turns the error of a command whose context was cancelled
// (SIGINT/SIGTERM) into an interruption: code interrupted, exit 130, the
// message kept. Whatever failed once the signal arrived failed because of
// it; reporting "npm failed" or "tsc exited with status -1" would be a
// false diagnosis.
func asInterrupted(ce *clierr.Error) *clierr.Error {
	out := *ce
	out.Exit = clierr.ExitInterrupted
	if out.Code != errcode.CodeInterrupted {
		out.Code = errcode.CodeInterrupted
		out.Message = "interrupted: " + out.Message
	}
	return &out
}

// quietUsageErrors makes every command of the tree return its flag and
// argument errors instead of printing them with its help text on stdout:
// Run reports them once, as the JSON envelope with --json and as one line
// on stderr without. Help is printed only when asked for (--help). A value
// a flag's parser refused is said in the user's terms (flagValueText), not
// in the parser's.
func quietUsageErrors(cmd *cli.Command) {
	cmd.OnUsageError = func(_ context.Context, c *cli.Command, err error, _ bool) error {
		msg, ok := flagValueText(err)
		if !ok {
			msg = err.Error()
		}
		return clierr.Usage(errcode.CodeUsage, "%s (see %s --help)", msg, c.FullName()).Wrap(err)
	}
	for _, sub := range cmd.Commands {
		quietUsageErrors(sub)
	}
}

// WantsJSON reports whether --json was given anywhere on the command line.
// It is used for errors that happen before or during flag parsing.
func WantsJSON(args []string) bool {
	for _, a := range args[1:] {
		if a == "--" {
			return false
		}
		if a == "--json" || a == "-json" || a == "--json=true" || a == "-json=true" {
			return true
		}
	}
	return false
}

// NotImplemented is the action of a command whose work has not been built
// yet: it fails honestly (exit 1) instead of pretending to succeed.
func NotImplemented(what string) cli.ActionFunc {
	return func(context.Context, *cli.Command) error {
		return clierr.New(errcode.CodeNotImplemented, "%s: not implemented yet", what)
	}
}

// JSONFlag is the --json flag every command accepts.
func JSONFlag() *cli.BoolFlag {
	return &cli.BoolFlag{Name: "json", Usage: "print exactly one JSON document on stdout (errors as {\"error\":{…}})"}
}

// ExactArgs returns a usage error unless the command got between min and max
// positional arguments.
func ExactArgs(cmd *cli.Command, min, max int, usage string) error {
	n := cmd.Args().Len()
	if n < min || n > max {
		return clierr.Usage(errcode.CodeUsage, "usage: %s %s", cmd.FullName(), usage)
	}
	return nil
}

// Lines joins help lines; handy for long Description texts.
func Lines(lines ...string) string { return strings.Join(lines, "\n") }

// SilentError carries an exit code for a command that has already written
// its complete result (for example a JSON document listing failures): Run
// exits with the code and prints nothing more.
type SilentError struct{ Code int }

func (e *SilentError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// Silent returns a SilentError with the given exit code.
func Silent(code int) error { return &SilentError{Code: code} }
