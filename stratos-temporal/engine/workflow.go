package engine

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/journalapi"
)

// Timeouts of the run's activities. The code and agents may run for hours;
// what bounds them is the heartbeat: a worker that dies stops beating, and
// after HeartbeatTimeout Temporal gives the activity to another worker.
const (
	codeHeartbeat  = 10 * time.Second
	agentHeartbeat = 20 * time.Second
	// stickyWait is how long an agent's next execute waits for the worker
	// holding its conversation before it goes to any worker.
	stickyWait = 30 * time.Second
	// workerWait is how long an execute whose harness queue was not seen
	// polled waits for a worker before it fails as harness_unavailable.
	workerWait = 20 * time.Second
	longest    = 7 * 24 * time.Hour
	// agentTries bounds how often one execute is given to another worker
	// after the one running it died.
	agentTries = 3
)

// Run is the Temporal workflow of one Stratos run. Workflow code may do
// I/O, so it cannot run inside Temporal's deterministic workflow; it runs
// as an activity (stratos run on a worker), and this workflow records what
// must survive that worker: every finished agent execute (the workflow
// runs each as an activity of its own, on the agent workers) and the rest
// of the code's journal. When the code's worker dies, the activity is
// retried on another, which replays the journal and gets every finished
// execute from this record instead of running it again.
func Run(ctx workflow.Context, req RunRequest) (RunResult, error) {
	r := &run{req: req, calls: map[string]*call{}, sticky: map[string]string{}, running: map[string]workflow.CancelFunc{}, hosts: map[string]bool{}}
	if err := r.register(ctx); err != nil {
		return RunResult{}, err
	}
	codeCtx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: longest,
		HeartbeatTimeout:    codeHeartbeat,
		WaitForCancellation: true,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second, MaximumAttempts: 20},
	})
	var res RunResult
	err := workflow.ExecuteActivity(codeCtx, ActivityRunCode, req).Get(ctx, &res)
	// Executes the code's lost attempts asked for, still running on agent
	// workers, are no longer awaited by anyone.
	for _, cancel := range r.running {
		cancel()
	}
	done, _ := workflow.NewDisconnectedContext(ctx)
	_ = workflow.Await(done, func() bool { return workflow.AllHandlersFinished(done) })
	r.closeHosts(done)
	return res, err
}

// run is the workflow's state.
type run struct {
	req     RunRequest
	header  *journalapi.Entry
	journal []journalapi.Entry
	// calls are the executes asked for, by journal key.
	calls map[string]*call
	// sticky is the task queue of the worker holding each agent's
	// conversation.
	sticky map[string]string
	// running cancels each agent's execute in flight.
	running map[string]workflow.CancelFunc
	// hosts are the worker queues that keep an agent host for this run.
	hosts map[string]bool
}

// call is one execute by journal key: in flight, or finished.
type call struct {
	done  bool
	reply ExecuteReply
}

func (r *run) register(ctx workflow.Context) error {
	if err := workflow.SetQueryHandler(ctx, QueryJournal, r.journalEntries); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandler(ctx, UpdateExecute, r.execute); err != nil {
		return err
	}
	entries := workflow.GetSignalChannel(ctx, SignalJournal)
	cancels := workflow.GetSignalChannel(ctx, SignalCancelAgent)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			sel := workflow.NewSelector(ctx)
			sel.AddReceive(entries, func(c workflow.ReceiveChannel, _ bool) {
				var e journalapi.Entry
				c.Receive(ctx, &e)
				r.append(e)
			})
			sel.AddReceive(cancels, func(c workflow.ReceiveChannel, _ bool) {
				var ca CancelAgent
				c.Receive(ctx, &ca)
				if cancel := r.running[ca.Agent]; cancel != nil {
					cancel()
				}
			})
			sel.Select(ctx)
		}
	})
	return nil
}

// journalEntries is the journal so far: the first attempt's header, then
// every entry in the order it arrived.
func (r *run) journalEntries() ([]journalapi.Entry, error) {
	if r.header == nil {
		return r.journal, nil
	}
	return append([]journalapi.Entry{*r.header}, r.journal...), nil
}

func (r *run) append(e journalapi.Entry) {
	if e.Kind == journalapi.KindHeader {
		if r.header == nil {
			r.header = &e
		}
		return
	}
	r.journal = append(r.journal, e)
}

// execute answers an execute from the record when its key finished (or is
// in flight: a lost attempt of the code asked for it), else runs it on an
// agent worker.
func (r *run) execute(ctx workflow.Context, req ExecuteRequest) (ExecuteReply, error) {
	key := placeKey(req.Place, req.Call)
	if c := r.calls[key]; key != "" && c != nil {
		if err := workflow.Await(ctx, func() bool { return c.done }); err != nil {
			return ExecuteReply{}, err
		}
		if c.reply.Error == nil {
			return c.reply, nil
		}
	}
	c := &call{}
	if key != "" {
		r.calls[key] = c
	}
	reply, err := r.runAgent(ctx, req)
	c.reply, c.done = reply, true
	if err != nil {
		delete(r.calls, key)
		return ExecuteReply{}, err
	}
	if reply.Error == nil && req.Place != nil {
		if e, jerr := executeEntry(workflow.Now(ctx), req, reply); jerr == nil {
			r.journal = append(r.journal, e)
		}
	}
	return reply, nil
}

// runAgent runs the execute as an activity: on the worker that holds the
// agent's conversation if it has one, else on any agent worker; again on
// any worker when the one it went to died or never came.
func (r *run) runAgent(ctx workflow.Context, req ExecuteRequest) (ExecuteReply, error) {
	input := AgentExecute{RunID: workflow.GetInfo(ctx).WorkflowExecution.ID, Request: req}
	var last error
	for try := 0; try < agentTries; try++ {
		queue, sticky := r.sticky[req.Agent]
		opts := workflow.ActivityOptions{
			TaskQueue:           cmp.Or(req.Queue, r.req.AgentQueue),
			StartToCloseTimeout: longest,
			HeartbeatTimeout:    agentHeartbeat,
			WaitForCancellation: true,
			RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
		}
		probing := !sticky && req.Unseen
		switch {
		case sticky:
			opts.TaskQueue, opts.ScheduleToStartTimeout = queue, stickyWait
		case probing:
			opts.ScheduleToStartTimeout = workerWait
		}
		actx, cancel := workflow.WithCancel(workflow.WithActivityOptions(ctx, opts))
		r.running[req.Agent] = cancel
		var reply ExecuteReply
		err := workflow.ExecuteActivity(actx, ActivityAgentExecute, input).Get(actx, &reply)
		delete(r.running, req.Agent)
		if err == nil {
			r.sticky[req.Agent], r.hosts[reply.Queue] = reply.Queue, true
			return reply, nil
		}
		if probing && workerLost(err) {
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
		delete(r.sticky, req.Agent)
		last = err
	}
	return ExecuteReply{}, fmt.Errorf("agent execute: no worker finished it in %d tries: %w", agentTries, last)
}

// workerLost reports whether err means the worker running (or meant to run)
// an activity is gone: its heartbeat stopped, or it never took the task.
func workerLost(err error) bool {
	var te *temporal.TimeoutError
	if !errors.As(err, &te) {
		return false
	}
	return slices.Contains([]enumspb.TimeoutType{enumspb.TIMEOUT_TYPE_HEARTBEAT, enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START}, te.TimeoutType())
}

// unavailableReply is the error of an execute no worker took: none of the
// queue's workers can run its harness.
func unavailableReply(queue, harness string) ExecuteReply {
	msg := fmt.Sprintf("no stratos worker took the agent from task queue %s within %s: no worker of the run's queue can run harness %q (none finds its CLI); start a worker where it is installed", queue, workerWait, harness)
	return ExecuteReply{Error: &RPCError{Code: agentproto.RPCAgentError, Message: msg, Data: []byte(`{"code":"harness_unavailable"}`)}}
}

// cancelledReply is the host's answer to a cancelled execute, for one the
// workflow cancelled before the worker's host could answer.
func cancelledReply() ExecuteReply {
	return ExecuteReply{Error: &RPCError{Code: agentproto.RPCAgentError, Message: "the execute was cancelled", Data: []byte(`{"code":"cancelled"}`)}}
}

// closeHosts tells every worker that kept a host for the run to close it; a
// worker that is gone has nothing to close.
func (r *run) closeHosts(ctx workflow.Context) {
	queues := make([]string, 0, len(r.hosts))
	for q := range r.hosts {
		queues = append(queues, q)
	}
	slices.Sort(queues)
	id := workflow.GetInfo(ctx).WorkflowExecution.ID
	var futures []workflow.Future
	for _, q := range queues {
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			TaskQueue: q, ScheduleToCloseTimeout: time.Minute, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1},
		})
		futures = append(futures, workflow.ExecuteActivity(actx, ActivityCloseRun, CloseRun{RunID: id}))
	}
	for _, f := range futures {
		_ = f.Get(ctx, nil)
	}
}

// placeKey is the record's key of an execute ("" when it has no place).
func placeKey(p *agentproto.ExecutePlace, call int) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf("%q %q %q %d %d %s", p.Path, p.ConfigID, p.Label, p.Agent, call, p.InputSHA256)
}
