package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v3"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/stratos-temporal/connect"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// askWait bounds each question to the server after it answered the dial:
// a server that stops answering must not hang a runs command.
const askWait = 15 * time.Second

func describeCommand() *cli.Command {
	return &cli.Command{
		Name:      "describe",
		Usage:     "print a run's state as its Temporal workflow reports it (what stratos runs asks)",
		UsageText: "stratos-temporal describe <workflow-id>",
		Hidden:    true,
		Flags:     []cli.Flag{cliapp.JSONFlag()},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return answer(ctx, cmd, func(ctx context.Context, c client.Client, id string) (temporalapi.RunState, error) {
				return describe(ctx, c, id)
			})
		},
	}
}

func cancelCommand() *cli.Command {
	return &cli.Command{
		Name:      "cancel",
		Usage:     "cancel a run's Temporal workflow and wait for its end (what stratos runs stop does when the run's submitter is gone)",
		UsageText: "stratos-temporal cancel <workflow-id>",
		Hidden:    true,
		Flags:     []cli.Flag{cliapp.JSONFlag()},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return answer(ctx, cmd, cancelRun)
		},
	}
}

// answer dials the server, asks it about the one workflow ID argument
// and prints the run's state as JSON.
func answer(ctx context.Context, cmd *cli.Command, ask func(context.Context, client.Client, string) (temporalapi.RunState, error)) error {
	if err := cliapp.ExactArgs(cmd, 1, 1, "<workflow-id>"); err != nil {
		return err
	}
	c, err := connect.Dial(ctx, os.Getenv, cmd.Root().ErrWriter)
	if err != nil {
		return err
	}
	defer c.Close()
	s, err := ask(ctx, c, cmd.Args().First())
	if err != nil {
		return err
	}
	return clierr.PrintJSON(cmd.Root().Writer, s)
}

// describe is the run's state: running while its workflow runs, else how
// it ended (its result's state when it has one).
func describe(ctx context.Context, c client.Client, id string) (temporalapi.RunState, error) {
	actx, cancel := context.WithTimeout(ctx, askWait)
	defer cancel()
	desc, err := c.DescribeWorkflow(actx, id, "")
	if err != nil {
		return temporalapi.RunState{}, askError(id, "describe", err)
	}
	info := desc.RawResponse.GetWorkflowExecutionInfo()
	s := temporalapi.RunState{WorkflowID: id}
	switch info.GetStatus() {
	case enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW:
		s.Status = temporalapi.StateRunning
		return s, nil
	case enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		var res engine.RunResult
		if err := c.GetWorkflow(actx, id, "").Get(actx, &res); err != nil {
			return s, askError(id, "read the result of", err)
		}
		s = res.FullState()
		s.WorkflowID = id
		if s.Status == "" { // a result of a version without the state
			code := res.ExitCode
			s.Status, s.ExitCode = temporalapi.StatusOfExit(code), &code
		}
		return s, nil
	}
	// Cancelled before its code gave a result, terminated, timed out or
	// failed: the workflow's end is all there is.
	end := info.GetCloseTime().AsTime().UTC()
	code := 1
	s.Status, s.EndedAt, s.ExitCode = "failed", &end, &code
	if info.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED {
		code = 130
		s.Status = "cancelled"
	}
	s.Error, _ = json.Marshal(struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}{temporalapi.CodeRunFailed, fmt.Sprintf("the run's Temporal workflow %s ended %s", id, info.GetStatus())})
	return s, nil
}

// cancelRun asks the server to cancel the run and waits, at most
// cancelWait, for the end its cancelled code gives.
func cancelRun(ctx context.Context, c client.Client, id string) (temporalapi.RunState, error) {
	actx, cancel := context.WithTimeout(ctx, askWait)
	err := c.CancelWorkflow(actx, id, "")
	cancel()
	if err != nil {
		return temporalapi.RunState{}, askError(id, "cancel", err)
	}
	wctx, cancel := context.WithTimeout(ctx, cancelWait)
	defer cancel()
	_ = c.GetWorkflow(wctx, id, "").Get(wctx, nil)
	s, err := describe(ctx, c, id)
	return s.AsCancelled(), err
}

// askError is a failed question about workflow id as a typed error: a
// workflow the server does not have, or a server that did not answer
// (naming its address).
func askError(id, what string, err error) error {
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return clierr.New(temporalapi.CodeRunNotFound, "the Temporal server has no workflow %s: %v", id, err).Wrap(err).
			WithDetails(map[string]any{"workflowId": id})
	}
	return clierr.New(temporalapi.CodeConnection, "%s run %s on the Temporal server at %s (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE): %v", what, id, serverAddress(), err).Wrap(err).
		WithDetails(map[string]any{"workflowId": id})
}

// serverAddress is the address the connection settings name.
func serverAddress() string {
	opts, err := connect.Options(os.Getenv)
	if err != nil {
		return os.Getenv("TEMPORAL_ADDRESS")
	}
	return opts.HostPort
}
