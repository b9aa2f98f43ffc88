package command

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v3"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

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
	resumeOfFlag   = "resume-of"
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
			// Internal: what stratos runs resume passes for a run on the
			// Temporal engine.
			&cli.StringFlag{Name: resumeOfFlag, Hidden: true, Usage: "resume the run of this workflow ID: its arguments, with the ones given after -- instead of theirs, and its journal"},
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
	// The server is reached first only for a resumed run, whose arguments
	// are in its history: a run the checks below refuse reaches nothing.
	var c client.Client
	dial := func() error {
		if c != nil {
			return nil
		}
		var err error
		c, err = connect.Dial(ctx, os.Getenv, cmd.Root().ErrWriter)
		return err
	}
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	dc, err := connect.DataConverter(os.Getenv)
	if err != nil {
		return err
	}
	args := cmd.Args().Slice()
	var resumed engine.RunRequest
	if of := cmd.String(resumeOfFlag); of != "" {
		if err := dial(); err != nil {
			return err
		}
		if resumed, err = submittedRequest(ctx, c, dc, of); err != nil {
			return err
		}
		args, resumed.ResumeOf = overrideArgs(resumed.Args, args), of
	}
	req := engine.RunRequest{Cwd: cwd, Args: args, AgentQueue: engine.AgentQueue(cmd.String("task-queue")), ResumeOf: resumed.ResumeOf}
	req.Repository, err = repository.Describe(ctx, repository.Request{Dir: cwd, Remote: cmd.String(repoFlag), Worktrees: usesWorktrees(cwd, args)},
		func(msg string) { fmt.Fprintf(cmd.Root().ErrWriter, "stratos: warning: %s\n", msg) })
	if err != nil {
		return err
	}
	switch {
	case readsStdin(cmd.Args().Slice()):
		if req.Stdin, err = boundedread.Reader(ctx, cmd.Root().Reader, maxStdin); err != nil {
			return clierr.Usage(temporalapi.CodeInputTooLarge, "read the input from stdin: %v", err)
		}
	case readsStdin(args):
		req.Stdin = resumed.Stdin // the resumed run's input, read from its stdin
	}
	if err := dial(); err != nil {
		return err
	}
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

// submittedRequest is the request run id's workflow was started with, as
// its history keeps it.
func submittedRequest(ctx context.Context, c client.Client, dc converter.DataConverter, id string) (engine.RunRequest, error) {
	var req engine.RunRequest
	actx, cancel := context.WithTimeout(ctx, askWait)
	defer cancel()
	iter := c.GetWorkflowHistory(actx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	if !iter.HasNext() {
		return req, clierr.New(temporalapi.CodeRunNotFound, "the Temporal server has no history of workflow %s", id).WithDetails(map[string]any{"workflowId": id})
	}
	first, err := iter.Next()
	if err != nil {
		return req, askError(id, "read the history of", err)
	}
	started := first.GetWorkflowExecutionStartedEventAttributes()
	if started == nil {
		return req, clierr.New(temporalapi.CodeRunFailed, "workflow %s's history does not begin with its start", id)
	}
	if err := dc.FromPayloads(started.GetInput(), &req); err != nil {
		return req, clierr.New(temporalapi.CodeRunFailed, "decode the request workflow %s was started with: %v", id, err).Wrap(err)
	}
	return req, nil
}

// overrideArgs are a resumed run's stratos run arguments with the flags
// of override in place of theirs: its flags (--name=value, as stratos run
// forwards them), those of override, then its positional arguments (the
// workflow).
func overrideArgs(resumed, override []string) []string {
	replaced := map[string]bool{}
	for _, a := range override {
		replaced[flagName(a)] = true
	}
	var flags, positional []string
	for i, a := range resumed {
		if !strings.HasPrefix(a, "--") {
			positional = resumed[i:]
			break
		}
		if !replaced[flagName(a)] {
			flags = append(flags, a)
		}
	}
	return append(append(flags, override...), positional...)
}

// flagName is the name of a --name=value argument.
func flagName(arg string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(arg, "--"), "=")
	return name
}
