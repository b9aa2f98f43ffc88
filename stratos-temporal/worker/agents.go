package worker

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
	"github.com/stratoscli/stratos/stratos-temporal/repository"
)

// heartbeatEvery is how often a running activity tells Temporal its worker
// lives (well inside the workflow's heartbeat timeouts).
const heartbeatEvery = 2 * time.Second

// agents are the agent activities of one worker.
type agents struct {
	hosts *hosts
	repos *repos
	// dir is the worker's directory, where it keeps answers too large to
	// travel back (answerFile).
	dir string
	// queue is this worker's own task queue: an agent's later executes
	// come back to it.
	queue string
	// slots bound the executes running at once (--max-agents), whichever
	// queue they came from.
	slots chan struct{}
}

// acquire waits for a free slot, beating the activity's heart meanwhile.
func (a *agents) acquire(ctx context.Context) error {
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	for {
		select {
		case a.slots <- struct{}{}:
			return nil
		case <-beat.C:
			activity.RecordHeartbeat(ctx)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Execute runs one agent execute on this worker's host for the run. The
// host's error response is the reply's error (an agent's failure is the
// workflow code's to handle, not Temporal's to retry). Cancelling the
// activity cancels the execute; the host's answer to that is the reply
// when the run cancelled it, and an ErrWorkerLost error otherwise (lost).
func (a *agents) Execute(ctx context.Context, in engine.AgentExecute) (engine.ExecuteReply, error) {
	if err := a.acquire(ctx); err != nil {
		if lost := a.lost(ctx, in.RunID, "an execute waiting for a free slot"); lost != nil {
			return engine.ExecuteReply{}, lost
		}
		return engine.ExecuteReply{}, err
	}
	defer func() { <-a.slots }()
	h, err := a.hosts.get(in.RunID, in.Request.Init)
	if err != nil {
		return engine.ExecuteReply{}, err
	}
	var ref struct {
		AgentID string `json:"agentId"`
		Name    string `json:"name"`
	}
	if err := json.Unmarshal(in.Request.Params, &ref); err != nil {
		return engine.ExecuteReply{}, err
	}
	params, err := a.repos.localize(ctx, in.RunID, in.Request.Params)
	if err != nil {
		return a.failed(agentproto.CodeInitialization, fmt.Sprintf("agent %q on worker %s: %v", ref.Name, a.hosts.worker, err), temporalapi.CodeRepositoryMissing), nil
	}
	sink, done := h.collect(ref.AgentID)
	answered := make(chan struct{})
	var result json.RawMessage
	var callErr error
	go func() {
		defer close(answered)
		callErr = h.conn.Call(context.Background(), agentproto.MethodAgentExecute, params, &result)
	}()
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	beats := &progressBeats{host: h, sink: sink, progress: engine.ExecuteProgress{Worker: a.hosts.worker}}
	for waiting := true; waiting; {
		select {
		case <-answered:
			waiting = false
		case <-beat.C:
			beats.beat(ctx)
		case <-ctx.Done():
			// The host answers a cancelled execute with its cancelled
			// error, which is the reply when the run cancelled it.
			_ = h.conn.Notify(agentproto.MethodAgentCancel, agentproto.CancelParams{AgentID: ref.AgentID, Call: in.Request.Call})
			<-answered
			waiting = false
		}
	}
	sink = done()
	if callErr != nil && ctx.Err() != nil {
		// Given up rather than cancelled, the execute starts over
		// elsewhere; an answer that beat the cancel is its result.
		if lost := a.lost(ctx, in.RunID, fmt.Sprintf("agent %q", ref.Name)); lost != nil {
			return engine.ExecuteReply{}, lost
		}
	}
	reply := engine.ExecuteReply{Result: result, Events: sink.lines, Worker: a.hosts.worker, Queue: a.queue}
	if callErr != nil {
		code, msg, data, ok := rpcError(callErr)
		if !ok {
			return engine.ExecuteReply{}, callErr
		}
		reply.Result, reply.Error = nil, &engine.RPCError{Code: code, Message: msg, Data: data}
	}
	a.publish(ctx, h, in, ref.AgentID, ref.Name, &reply)
	if reply.Bytes() > engine.MaxReplyBytes {
		reply = a.keepAnswer(activity.GetInfo(ctx).WorkflowExecution.ID, in.RunID, ref.Name, reply)
	}
	return reply, nil
}

// keepAnswer keeps an answer too large to travel back to the run in a
// file of this worker's and replies with an error that names it: the
// execute fails at once, as it would at the server, but the agent's work
// is not lost with it.
func (a *agents) keepAnswer(id, runID, name string, reply engine.ExecuteReply) engine.ExecuteReply {
	path := filepath.Join(a.dir, answerFile(id))
	kept := fmt.Sprintf("the worker kept it at %s", path)
	err := os.MkdirAll(filepath.Dir(path), 0o700)
	if err == nil {
		err = atomicfile.WriteFile(path, reply.Result, 0o600)
	}
	if err != nil {
		kept = fmt.Sprintf("keeping it failed too: %v", err)
	}
	msg := fmt.Sprintf("agent %q on worker %s: its answer, %d bytes, is larger than a Temporal payload may be (2 MiB by default), so it cannot travel back to the run; %s",
		name, a.hosts.worker, len(reply.Result), kept)
	fmt.Fprintf(a.hosts.stderr, "stratos worker %s: run %s: %s\n", a.hosts.worker, runID, msg)
	return engine.ExecuteReply{Error: engine.AgentError(agentproto.CodeExecution, msg, temporalapi.CodeAnswerTooLarge),
		Events: reply.Events, Worker: reply.Worker, Queue: reply.Queue, Branch: reply.Branch}
}

// answerFile is where, under the worker's directory, keepAnswer keeps the
// answer of the execute whose workflow ID is id: one file, named by the ID.
func answerFile(id string) string {
	return filepath.Join("answers", strings.ReplaceAll(id, "/", "_")+".json")
}

// lost is why this worker gives up an execute whose activity ended (ctx)
// while the agent worked, nil when the run cancelled it: any other end (this
// worker stops; an operator paused the activity; its heartbeat timed out
// while the worker stalled, and another attempt may run already) leaves the
// execute to another worker, as if this one had died.
func (a *agents) lost(ctx context.Context, runID, what string) error {
	cause := context.Cause(ctx)
	if runCancelled(cause) {
		return nil
	}
	why := fmt.Sprintf("worker %s gave up %s (%v): the execute starts over on another worker", a.hosts.worker, what, cause)
	fmt.Fprintf(a.hosts.stderr, "stratos worker %s: run %s: %s\n", a.hosts.worker, runID, why)
	return engine.WorkerLostError(why)
}

// progressBeats beat an execute's heart with its events so far
// (engine.ExecuteProgress), at every tick: a heartbeat replaces the one
// before, so each carries the last progress, and its answer is how the
// activity learns that the run cancelled the execute. Beating only when
// the agent had reported something new (else every 8 s) saved server
// writes but left a cancelled execute running for up to 8 s, past the
// code's 10 s grace on Ctrl-C: the agent's end then never reached the
// run's record.
type progressBeats struct {
	host     *host
	sink     *eventSink
	sent     int // the events the last progress held
	progress engine.ExecuteProgress
}

func (b *progressBeats) beat(ctx context.Context) {
	if n, events := b.host.seen(b.sink, b.sent); events != nil {
		b.progress, b.sent = engine.ProgressOf(b.progress.Worker, events), n
	}
	activity.RecordHeartbeat(ctx, b.progress)
}

// publish commits and pushes what the agent left in its worktree, if it
// works in one and the run names a remote, before the execute's reply
// goes back: no work exists only on this machine. The reply then names the
// branch; work that did not reach it fails the execute (an agent error
// the workflow code can catch), unless the execute failed already.
func (a *agents) publish(ctx context.Context, h *host, in engine.AgentExecute, agentID, name string, reply *engine.ExecuteReply) {
	wt, ok := h.worktree(agentID)
	if !ok {
		return
	}
	repo, err := a.repos.of(ctx, in.RunID)
	if err == nil && repo == nil {
		return
	}
	var b engine.Branch
	if err == nil {
		work := repository.WorkIn(wt, repo.Remote, in.RunID,
			fmt.Sprintf("stratos: %s, execute %d (run %s, worker %s)", name, in.Request.Call, in.RunID, a.hosts.worker))
		err = whileBeating(ctx, func() (err error) {
			b, err = repository.Publish(context.WithoutCancel(ctx), work)
			return err
		})
	}
	if err == nil {
		reply.Branch = &b
		return
	}
	fmt.Fprintf(a.hosts.stderr, "stratos worker %s: run %s: agent %q: %v\n", a.hosts.worker, in.RunID, name, err)
	if reply.Error != nil {
		return
	}
	*reply = a.failed(agentproto.CodeExecution, fmt.Sprintf("agent %q on worker %s: %v", name, a.hosts.worker, err), repository.ErrorCode(err))
}

// failed is an execute's reply that is the agent error code, its details
// naming the Temporal engine's own error code.
func (a *agents) failed(code, message, temporalCode string) engine.ExecuteReply {
	return engine.ExecuteReply{Error: engine.AgentError(code, message, temporalCode), Worker: a.hosts.worker, Queue: a.queue}
}

// CloseRun closes the host this worker kept for the run, and the run's
// checkout here.
func (a *agents) CloseRun(ctx context.Context, in engine.CloseRun) error {
	a.hosts.close(in.RunID)
	if err := a.repos.closeRun(context.WithoutCancel(ctx), in.RunID); err != nil {
		fmt.Fprintf(a.hosts.stderr, "stratos worker %s: run %s: %v\n", a.hosts.worker, in.RunID, err)
	}
	return nil
}
