package command

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v3"
	"go.temporal.io/sdk/client"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/stratos-temporal/connect"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
	"github.com/stratoscli/stratos/stratos-temporal/repository"
)

// Hidden flags of run.
const (
	workflowIDFlag = "workflow-id"
	stateFileFlag  = "state-file"
	eventsFileFlag = "events-file"
	repoFlag       = "repo"
)

// maxStdin bounds an input read from stdin: it travels in a Temporal
// payload.
const maxStdin = 1 << 20

// cancelWait bounds the wait for a cancelled run's own result (its code
// cancels its agents and writes its record first).
const cancelWait = time.Minute

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a workflow on Temporal workers (what stratos run --engine temporal does)",
		UsageText: "stratos-temporal run [--task-queue NAME] [--json] -- <stratos run arguments>",
		Description: cliapp.Lines(
			"Starts the run as a Temporal workflow on the task queue and waits for it: a worker runs",
			"stratos run with these arguments in this directory (the same path on the worker, else its",
			"checkout of the run's git remote at HEAD: --repo URL, default origin), its",
			"agents run on any worker of the queue. Prints the run's stdout and stderr and exits with",
			"its exit code. Ctrl-C cancels the run everywhere and exits 130. --json: its own errors (the",
			"server cannot be reached, ...) as the JSON envelope on stdout, as stratos run --json does.",
		),
		Flags: []cli.Flag{queueFlag(), cliapp.JSONFlag(),
			&cli.StringFlag{Name: repoFlag, Usage: "the git remote workers without this directory check the run's commit out from, and agents in worktrees push their branches to (default: origin's URL)"},
			// Internal: what stratos run passes for the run record on the
			// submitting machine.
			&cli.StringFlag{Name: workflowIDFlag, Hidden: true, Usage: "the run's workflow ID (default: a new one)"},
			&cli.StringFlag{Name: stateFileFlag, Hidden: true, Usage: "write how the run ended (its RunState) to this file"},
			&cli.StringFlag{Name: eventsFileFlag, Hidden: true, Usage: "append the run's events to this file as they are reported"},
		},
		Action: submit,
	}
}

func submit(ctx context.Context, cmd *cli.Command) error {
	err := submitRun(ctx, cmd)
	var ended *cliapp.SilentError // the run's own exit code: its state is written
	if err != nil && ctx.Err() == nil && !errors.As(err, &ended) {
		// The run did not start, or its workflow ended without its code's
		// result: the record says why. (Interrupted while waiting, it
		// may still be ending: the record asks Temporal later.)
		if werr := writeState(cmd.String(stateFileFlag), cmd.String(workflowIDFlag), failedState(err)); werr != nil {
			fmt.Fprintf(cmd.Root().ErrWriter, "stratos: %v\n", werr)
		}
	}
	return err
}

func submitRun(ctx context.Context, cmd *cli.Command) error {
	cwd, err := os.Getwd()
	if err != nil {
		return clierr.New(temporalapi.CodeSubmit, "find the working directory: %v", err)
	}
	args := cmd.Args().Slice()
	req := engine.RunRequest{Cwd: cwd, Args: args, AgentQueue: engine.AgentQueue(cmd.String("task-queue"))}
	req.Repository, err = repository.Describe(ctx, repository.Request{Dir: cwd, Remote: cmd.String(repoFlag), Worktrees: usesWorktrees(cwd, args)},
		func(msg string) { fmt.Fprintf(cmd.Root().ErrWriter, "stratos: warning: %s\n", msg) })
	if err != nil {
		return err
	}
	if readsStdin(args) {
		if req.Stdin, err = boundedread.Reader(ctx, cmd.Root().Reader, maxStdin); err != nil {
			return clierr.Usage(temporalapi.CodeInputTooLarge, "read the input from stdin: %v", err)
		}
	}
	c, err := connect.Dial(ctx, os.Getenv, cmd.Root().ErrWriter)
	if err != nil {
		return err
	}
	defer c.Close()
	id := cmd.String(workflowIDFlag)
	if id == "" {
		if id, err = newRunID(); err != nil {
			return clierr.New(temporalapi.CodeSubmit, "make the run's ID: %v", err)
		}
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: cmd.String("task-queue")}, engine.WorkflowRun, req)
	if err != nil {
		return clierr.New(temporalapi.CodeSubmit, "start the run on Temporal (task queue %s): %v", cmd.String("task-queue"), err).Wrap(err)
	}
	fmt.Fprintf(cmd.Root().ErrWriter, "stratos: running on Temporal as workflow %s (task queue %s)\n", id, cmd.String("task-queue"))
	dc, err := connect.DataConverter(os.Getenv)
	if err != nil {
		return err
	}
	f := &follower{out: cmd.Root().ErrWriter, decode: dc, events: openEvents(cmd.String(eventsFileFlag), cmd.Root().ErrWriter)}
	defer f.events.close()
	fctx, stopFollowing := context.WithCancel(context.WithoutCancel(ctx))
	following := make(chan struct{})
	go func() { defer close(following); f.follow(fctx, c, id) }()
	res, err := await(ctx, c, run)
	stopFollowing()
	<-following
	if err != nil {
		return err
	}
	f.finish(res)
	if err := writeState(cmd.String(stateFileFlag), id, res.FullState()); err != nil {
		fmt.Fprintf(cmd.Root().ErrWriter, "stratos: %v\n", err)
	}
	_, _ = cmd.Root().Writer.Write(res.Stdout)
	if res.ExitCode != 0 {
		return &cliapp.SilentError{Code: res.ExitCode}
	}
	return nil
}

// await waits for the run's result; when ctx ends first (Ctrl-C) it
// cancels the run and waits a bounded time for the result the cancelled
// code gives.
func await(ctx context.Context, c client.Client, run client.WorkflowRun) (engine.RunResult, error) {
	var res engine.RunResult
	got := make(chan error, 1)
	go func() { got <- run.Get(context.WithoutCancel(ctx), &res) }()
	select {
	case err := <-got:
		return res, runError(run.GetID(), err)
	case <-ctx.Done():
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelWait)
	defer cancel()
	_ = c.CancelWorkflow(cctx, run.GetID(), "")
	select {
	case err := <-got:
		if err != nil {
			return res, ctx.Err()
		}
		if res.State = res.State.AsCancelled(); res.State.ExitCode != nil {
			res.ExitCode = *res.State.ExitCode
		}
		return res, nil
	case <-cctx.Done():
		return res, ctx.Err()
	}
}

func runError(id string, err error) error {
	if err == nil {
		return nil
	}
	var ce *clierr.Error
	if errors.As(err, &ce) {
		return ce
	}
	return clierr.New(temporalapi.CodeRunFailed, "run %s on Temporal: %v", id, err).Wrap(err)
}

// readsStdin reports whether stratos run's arguments read standard input.
func readsStdin(args []string) bool {
	for i, a := range args {
		if a == "--input=-" || (a == "--input" && i+1 < len(args) && args[i+1] == "-") {
			return true
		}
	}
	return false
}

func newRunID() (string, error) {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "stratos-" + time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b), nil
}
