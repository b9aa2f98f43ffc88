package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// Timeouts of an execute's activity. Agents may run for hours; what bounds
// them is the heartbeat: a worker that dies stops beating, and after
// agentHeartbeat Temporal gives the execute to another worker.
const (
	agentHeartbeat = 20 * time.Second
	// stickyWait is how long an agent's next execute waits for the worker
	// holding its conversation before it goes to any worker.
	stickyWait = 30 * time.Second
	// workerWait is how long an execute whose harness queue was not seen
	// polled waits for a worker before it fails as harness_unavailable.
	workerWait = 20 * time.Second
	// agentTries bounds how often one execute is given to another worker
	// after the one running it died.
	agentTries = 3
)

// ExecuteID is the workflow ID of the execute at place (its journal key)
// in run: a retried attempt of the code that asks for the same execute
// starts the same ID, and Temporal's ID uniqueness attaches it to the
// execute already running or finished instead of running the agent again.
func ExecuteID(run string, place *agentproto.ExecutePlace, call int) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%q %q %q %d %d %s", place.Path, place.ConfigID, place.Label, place.Agent, call, place.InputSHA256)))
	return run + "/execute/" + hex.EncodeToString(sum[:16])
}

// Execute is the Temporal workflow of one agent execute: it runs the
// execute as an activity on the agent workers and returns the host's reply.
// Its history keeps the reply, so the code's agent host gets it even when
// the code's worker died after the agent finished: the next attempt starts
// the same workflow ID and attaches to this one. The code's agent host
// tells the run's workflow it started (so that the run cancels it if the
// run ends first) and that it finished: a signal from here would cost each
// execute two more events and a workflow task of its own.
func Execute(ctx workflow.Context, in AgentExecute) (ExecuteReply, error) {
	return runAgent(ctx, in)
}

// runAgent runs the execute as an activity: on the worker that holds the
// agent's conversation if it has one, else on the execute's queue; again on
// any worker of that queue when the one it went to died or never came.
func runAgent(ctx workflow.Context, in AgentExecute) (ExecuteReply, error) {
	req := in.Request
	sticky := in.Sticky
	var last error
	for try := 0; try < agentTries; try++ {
		opts := workflow.ActivityOptions{
			TaskQueue:           req.Queue,
			StartToCloseTimeout: longest,
			HeartbeatTimeout:    agentHeartbeat,
			WaitForCancellation: true,
			RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
		}
		probing := sticky == "" && req.Unseen
		switch {
		case sticky != "":
			opts.TaskQueue, opts.ScheduleToStartTimeout = sticky, stickyWait
		case probing:
			opts.ScheduleToStartTimeout = workerWait
		}
		var reply ExecuteReply
		err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), ActivityAgentExecute, in).Get(ctx, &reply)
		if err == nil {
			return reply, nil
		}
		if probing && unavailable(ctx, err) {
			return unavailableReply(opts.TaskQueue, req.Harness), nil
		}
		if !workerLost(err) {
			if temporal.IsCanceledError(err) {
				return cancelledReply(), nil
			}
			return ExecuteReply{}, err
		}
		// The worker died or never took it: its conversation is gone with
		// it, and the execute starts over on any worker.
		sticky, last = "", err
	}
	return ExecuteReply{}, fmt.Errorf("agent execute: no worker finished it in %d tries: %w", agentTries, last)
}

// ErrWorkerLost is the type of the error an agent's activity fails with
// when its worker gave the execute up unfinished: the worker stops, or
// Temporal no longer counts the attempt (an operator paused it, its
// heartbeat timed out while the worker stalled). The execute starts over
// elsewhere, as when its worker died.
const ErrWorkerLost = "stratos_worker_lost"

// WorkerLostError is an ErrWorkerLost error saying why.
func WorkerLostError(why string) error {
	return temporal.NewApplicationError(why, ErrWorkerLost)
}

// workerLost reports whether err means the worker running (or meant to run)
// an activity is gone: its heartbeat stopped, it never took the task, or it
// gave the task up (ErrWorkerLost).
func workerLost(err error) bool {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) && ae.Type() == ErrWorkerLost {
		return true
	}
	var te *temporal.TimeoutError
	if !errors.As(err, &te) {
		return false
	}
	return slices.Contains([]enumspb.TimeoutType{enumspb.TIMEOUT_TYPE_HEARTBEAT, enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START}, te.TimeoutType())
}

// versionTakenIsSeen marks the executes for which only an activity no
// worker took means the harness is unavailable; before it, one whose
// worker took it and then died did too.
const versionTakenIsSeen = "taken-is-seen"

// unavailable reports whether err, for an execute whose harness queue was
// not seen polled, means no worker can run the harness: none took the
// activity. A worker that took it can, and one that died or stopped
// meanwhile leaves it to the next.
func unavailable(ctx workflow.Context, err error) bool {
	if !workerLost(err) {
		return false
	}
	if workflow.GetVersion(ctx, versionTakenIsSeen, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return true
	}
	var te *temporal.TimeoutError
	return errors.As(err, &te) && te.TimeoutType() == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START
}

// unavailableReply is the error of an execute no worker took: none of the
// queue's workers can run its harness.
func unavailableReply(queue, harness string) ExecuteReply {
	msg := fmt.Sprintf("no stratos worker took the agent from task queue %s within %s: no worker of the run's queue can run harness %q (none finds its CLI and, unless the agent's provider is ollama, a credential for it); start a worker where it is installed and authenticated", queue, workerWait, harness)
	return ExecuteReply{Error: &RPCError{Code: agentproto.RPCAgentError, Message: msg, Data: []byte(`{"code":"harness_unavailable"}`)}}
}

// cancelledReply is the host's answer to a cancelled execute, for one the
// workflow cancelled before the worker's host could answer.
func cancelledReply() ExecuteReply {
	return ExecuteReply{Error: &RPCError{Code: agentproto.RPCAgentError, Message: "the execute was cancelled", Data: []byte(`{"code":"cancelled"}`)}}
}
