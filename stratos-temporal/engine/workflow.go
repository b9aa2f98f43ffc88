package engine

import (
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/stratoscli/stratos/shared/contract/journalapi"
)

// Timeouts of the run's code. It may run for hours; what bounds it is the
// heartbeat: a worker that dies stops beating, and after codeHeartbeat
// Temporal gives the code to another worker.
const (
	codeHeartbeat = 10 * time.Second
	longest       = 7 * 24 * time.Hour
)

// Run is the Temporal workflow of one Stratos run. Workflow code may do
// I/O, so it cannot run inside Temporal's deterministic workflow; it runs
// as an activity (stratos run on a worker), and this workflow records what
// must survive that worker: the code's journal, with an entry for every
// finished agent execute (each execute is a workflow of its own, Execute,
// which the code's agent host starts and whose end it signals here). When
// the code's worker dies, the activity is retried on another, which replays
// the journal, and attaches to an execute the journal does not hold yet by
// its workflow ID instead of running it again. When the run ends, the
// executes still running are cancelled.
func Run(ctx workflow.Context, req RunRequest) (RunResult, error) {
	r := &run{req: req, executes: map[string]bool{}, cancelled: map[string]bool{}, hosts: map[string]bool{}, places: map[string]bool{}}
	if err := r.register(ctx); err != nil {
		return RunResult{}, err
	}
	codeCtx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: longest,
		HeartbeatTimeout:    codeHeartbeat,
		WaitForCancellation: true,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second, MaximumAttempts: 20},
	})
	done, _ := workflow.NewDisconnectedContext(ctx)
	// A cancelled run cancels its agents at once, on every worker, while
	// its code is being interrupted.
	workflow.Go(ctx, func(gctx workflow.Context) {
		workflow.NewSelector(gctx).AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) {}).Select(gctx)
		r.cancelExecutes(done)
	})
	var res RunResult
	err := workflow.ExecuteActivity(codeCtx, ActivityRunCode, req).Get(ctx, &res)
	// Executes the code's lost attempts asked for, or the code left
	// running when it ended, are no longer awaited by anyone.
	r.cancelExecutes(done)
	r.awaitCancels(done)
	r.closeHosts(done)
	return res, err
}

// run is the workflow's state.
type run struct {
	req     RunRequest
	header  *journalapi.Entry
	journal []journalapi.Entry
	// places are the identities of the journal's entries: a replayed entry
	// that repeats one (a retried attempt replays its run's own journal,
	// whose entries the workflow holds already) is not kept twice.
	places map[string]bool
	// executes are the run's execute workflows by ID: true once finished.
	executes map[string]bool
	// cancelled are the executes this workflow cancelled, cancels the
	// requests.
	cancelled map[string]bool
	cancels   []workflow.Future
	// hosts are the worker queues that keep an agent host for this run.
	hosts map[string]bool
}

func (r *run) register(ctx workflow.Context) error {
	if err := workflow.SetQueryHandler(ctx, QueryJournal, r.journalEntries); err != nil {
		return err
	}
	if err := workflow.SetQueryHandler(ctx, QueryRepository, func() (*Repository, error) { return r.req.Repository, nil }); err != nil {
		return err
	}
	records := workflow.GetSignalChannel(ctx, SignalRecord)
	entries := workflow.GetSignalChannel(ctx, SignalJournal)
	started := workflow.GetSignalChannel(ctx, SignalExecuteStarted)
	finished := workflow.GetSignalChannel(ctx, SignalExecuteFinished)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			sel := workflow.NewSelector(ctx)
			sel.AddReceive(records, func(c workflow.ReceiveChannel, _ bool) {
				var rec Record
				c.Receive(ctx, &rec)
				r.record(rec)
			})
			sel.AddReceive(entries, func(c workflow.ReceiveChannel, _ bool) {
				var e journalapi.Entry
				c.Receive(ctx, &e)
				r.append(e)
			})
			sel.AddReceive(started, func(c workflow.ReceiveChannel, _ bool) {
				var s ExecuteStarted
				c.Receive(ctx, &s)
				r.start(s)
			})
			sel.AddReceive(finished, func(c workflow.ReceiveChannel, _ bool) {
				var f ExecuteFinished
				c.Receive(ctx, &f)
				r.finish(f)
			})
			sel.Select(ctx)
		}
	})
	return nil
}

// record applies what one SignalRecord carries.
func (r *run) record(rec Record) {
	for _, s := range rec.Started {
		r.start(s)
	}
	for _, e := range rec.Journal {
		r.append(e)
	}
	for _, f := range rec.Finished {
		r.finish(f)
	}
}

// start notes an execute the code asked for; one already known (finished
// before its start arrived, or asked for again by a retried attempt)
// stays as it is.
func (r *run) start(s ExecuteStarted) {
	if _, known := r.executes[s.ID]; !known {
		r.executes[s.ID] = false
	}
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
	r.keep(e)
}

// keep adds e to the journal, unless it is a replayed entry whose place the
// journal holds: the copy a resumed run's replay makes is kept once, and
// the copies a retried attempt makes of the run's own entries not at all.
func (r *run) keep(e journalapi.Entry) {
	id := e.Identity()
	if e.Replayed && r.places[id] {
		return
	}
	r.places[id] = true
	r.journal = append(r.journal, e)
}

// finish records an execute's end: its journal entry (once, though a
// retried attempt of the code that attached to it signals it again) and
// the worker that keeps a host for the run.
func (r *run) finish(f ExecuteFinished) {
	if f.Queue != "" {
		r.hosts[f.Queue] = true
	}
	if r.executes[f.ID] {
		return
	}
	r.executes[f.ID] = true
	if f.Entry != nil {
		r.keep(*f.Entry)
	}
}

// cancelExecutes cancels the execute workflows not known to have finished
// (once each); one that finished meanwhile has nothing to cancel.
func (r *run) cancelExecutes(ctx workflow.Context) {
	for _, id := range sortedKeys(r.executes) {
		if !r.executes[id] && !r.cancelled[id] {
			r.cancelled[id] = true
			r.cancels = append(r.cancels, workflow.RequestCancelExternalWorkflow(ctx, id, ""))
		}
	}
}

// awaitCancels waits until every cancellation requested reached its
// execute (or found it ended): the run must not end before, or the server
// drops them.
func (r *run) awaitCancels(ctx workflow.Context) {
	// By index: a cancellation of the run may add one meanwhile.
	for i := 0; i < len(r.cancels); i++ {
		_ = r.cancels[i].Get(ctx, nil)
	}
}

// closeWait bounds how long a run's end waits for its workers to close
// their hosts. A worker that is up polls its own queue and answers at
// once; one that is gone (stopped, or died, mid-run) never does, and has
// nothing to close: the run's result waited a minute for it.
const closeWait = 10 * time.Second

// versionBoundedClose marks the runs whose end waits at most closeWait for
// the hosts to close (a timer runs beside the close activities); runs that
// reached their end before it replay as they ran.
const versionBoundedClose = "bounded-close"

// closeHosts tells every worker that kept a host for the run to close it;
// a worker that is gone has nothing to close. A close still pending after
// closeWait is left: the run ends, and a worker that is up but late keeps
// the host until it stops.
func (r *run) closeHosts(ctx workflow.Context) {
	id := workflow.GetInfo(ctx).WorkflowExecution.ID
	var futures []workflow.Future
	for _, q := range sortedKeys(r.hosts) {
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			TaskQueue: q, ScheduleToCloseTimeout: time.Minute, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1},
		})
		futures = append(futures, workflow.ExecuteActivity(actx, ActivityCloseRun, CloseRun{RunID: id}))
	}
	if len(futures) == 0 {
		return
	}
	if workflow.GetVersion(ctx, versionBoundedClose, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		for _, f := range futures {
			_ = f.Get(ctx, nil)
		}
		return
	}
	tctx, stopTimer := workflow.WithCancel(ctx)
	defer stopTimer()
	pending, late := len(futures), false
	sel := workflow.NewSelector(ctx)
	for _, f := range futures {
		sel.AddFuture(f, func(workflow.Future) { pending-- })
	}
	sel.AddFuture(workflow.NewTimer(tctx, closeWait), func(workflow.Future) { late = true })
	for pending > 0 && !late {
		sel.Select(ctx)
	}
}

// sortedKeys are m's keys in order: the workflow's commands must come in
// the same order on every replay.
func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
