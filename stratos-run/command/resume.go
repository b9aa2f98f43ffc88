package command

import (
	"context"
	"encoding/json"
	"errors"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/logging"
	"github.com/stratoscli/stratos/stratos-run/budget"
	"github.com/stratoscli/stratos/stratos-run/invocation"
	"github.com/stratoscli/stratos/stratos-run/preparation"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

const resumeUsage = "<id> [--input JSON|@file|-] [--budget-usd N] [--budget-tokens N] [--strict] [--json]"

func runsResumeCommand() *cli.Command {
	return &cli.Command{
		Name:      "resume",
		Usage:     "resume a run that crashed, failed or was cancelled, without repeating its finished work",
		UsageText: "stratos runs resume " + resumeUsage,
		Description: cliapp.Lines(
			"Starts a new execution of the run's workflow, linked to the run (resumedFrom), with the",
			"run's input, overrides and budget unless the flags give others, in the run's working",
			"directory. The workflow code runs again from the top; each agent execute, child workflow and",
			"budget reading that finished in the run, at the same place with the same input, is answered",
			"from the run's journal without touching a harness or a model. The first call of an",
			"invocation that does not match runs for real, and so does every later call of that",
			"invocation. Output, stderr and exit codes are stratos run's.",
			"",
			"A run that succeeded, or is still running, is refused (resume_not_resumable, exit 2). When a",
			"workflow's code changed since the run, resume says which and replays what still matches;",
			"--strict refuses instead (resume_code_changed, exit 2). See docs/durable-runs.md.",
			"",
			"A run on the Temporal engine is resumed there: a new Temporal run of the same arguments,",
			"whose code, on a worker, replays the journal the run's workflow kept (docs/temporal.md).",
		),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "input", Usage: "the workflow's input: JSON, @file, or - for stdin (default: the run's own input)"},
			&cli.FloatFlag{Name: budgetUSDFlag, Usage: "cancel the run once its agents have spent more than this many US dollars (default: the run's own budget)"},
			&cli.IntFlag{Name: budgetTokensFlag, Usage: "cancel the run once its agents have used more than this many tokens (default: the run's own budget)"},
			&cli.BoolFlag{Name: "strict", Usage: "refuse to resume when a workflow's code changed since the run"},
			cliapp.JSONFlag(),
		},
		Action: resumeRun,
	}
}

func resumeRun(ctx context.Context, cmd *cli.Command) error {
	store, id, err := resolveArg(cmd, resumeUsage)
	if err != nil {
		return err
	}
	point, err := store.ResumePoint(id)
	if err != nil {
		return err
	}
	defer point.Release()
	if point.Invocation.Temporal != nil {
		return resumeOnTemporal(ctx, cmd, point)
	}
	// Launched while the workflow builds, as `stratos run` launches it.
	validator := launchValidator()
	defer validator.close()
	root := cmd.Root()
	input, limits, err := resumeArgs(ctx, cmd, point.Invocation)
	if err != nil {
		return err
	}
	x, err := resumedExecution(point, input, limits, cmd.Bool("strict"))
	if err != nil {
		return err
	}
	x.log = logging.New("stratos", root.ErrWriter)
	x.stderr, x.json, x.validator = root.ErrWriter, cmd.Bool("json"), validator
	for _, p := range point.Problems {
		x.log.Warn("a line of the resumed run's journal was skipped; its call runs again", "run", id, "problem", p.String())
	}
	// Build first, and compare the code with the journal's, before the new
	// execution's record exists: a --strict refusal leaves nothing behind.
	if err := x.target.Prepare(ctx, x.log, x.stderr); err != nil {
		return err
	}
	if ce := x.resume.compare(x.target.BuildKeys(), x.log.Warn); ce != nil {
		return ce
	}
	x.startEarly(ctx)
	if err := x.begin(); err != nil {
		x.early.abort()
		return err
	}
	x.log.Info("resuming", "run", id, "execution", x.id, "journalled", len(point.Journal.Entries))
	output, runErr := x.run(ctx)
	if runErr != nil {
		return x.describe(runErr)
	}
	return clierr.PrintJSON(root.Writer, output)
}

// resumedExecution is the execution that resumes point: its workflow, in
// its working directory, with its overrides, and with input and limits.
func resumedExecution(point *runs.ResumePoint, input json.RawMessage, limits budget.Limits, strict bool) (*execution, error) {
	inv := point.Invocation
	if err := workingDir(inv); err != nil {
		return nil, err
	}
	target, err := preparation.Resolve(inv.Cwd, inv.Dir)
	if err != nil {
		return nil, err
	}
	overrides := inv.Overrides
	if string(overrides) == "null" {
		overrides = nil
	}
	return &execution{
		target: target, cwd: inv.Cwd, input: input, overrides: overrides, budget: limits,
		resume: &resumption{from: inv.ExecutionID, journal: point.Journal, strict: strict, carried: point.ChainSpent()},
	}, nil
}

// workingDir checks that the run's working directory, where the resumed
// execution runs, is still a directory: node started in one that is gone
// failed as if its own binary were missing (runner_failed, which --retry
// takes for a passing failure), with a record of a run that never began.
func workingDir(inv records.Invocation) error {
	fi, err := os.Stat(inv.Cwd)
	if err == nil && !fi.IsDir() {
		err = errors.New("not a directory")
	}
	if err != nil {
		return clierr.New(discoverapi.CodeCwdUnreadable, "run %s cannot be resumed: its working directory %s, where the workflow runs again, cannot be used: %v", inv.ExecutionID, inv.Cwd, err).
			WithDetails(map[string]any{"executionId": inv.ExecutionID, "cwd": inv.Cwd}).Wrap(err)
	}
	return nil
}

// resumeArgs are the input and budget of `runs resume`: the run's own,
// unless the flags give others.
func resumeArgs(ctx context.Context, cmd *cli.Command, inv records.Invocation) (json.RawMessage, budget.Limits, error) {
	input := inv.Input
	if cmd.IsSet("input") {
		var err error
		if input, err = invocation.ReadInput(ctx, cmd.String("input"), cmd.Root().Reader); err != nil {
			return nil, budget.Limits{}, err
		}
	}
	limits, err := resumedBudget(cmd, inv.Budget)
	return input, limits, err
}

// resumedBudget is the resumed run's budget, with the limits the flags give
// instead.
func resumedBudget(cmd *cli.Command, recorded *records.Budget) (budget.Limits, error) {
	var l budget.Limits
	if recorded != nil {
		l = budget.Limits(*recorded)
	}
	return l.Override(budgetFlags(cmd))
}
