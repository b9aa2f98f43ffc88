package worker

import (
	"context"
	"encoding/json"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// heartbeatEvery is how often a running activity tells Temporal its worker
// lives (well inside the workflow's heartbeat timeouts).
const heartbeatEvery = 2 * time.Second

// agents are the agent activities of one worker.
type agents struct {
	hosts *hosts
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
// activity cancels the execute; the host's answer to that is the reply.
func (a *agents) Execute(ctx context.Context, in engine.AgentExecute) (engine.ExecuteReply, error) {
	if err := a.acquire(ctx); err != nil {
		return engine.ExecuteReply{}, err
	}
	defer func() { <-a.slots }()
	h, err := a.hosts.get(in.RunID, in.Request.Init)
	if err != nil {
		return engine.ExecuteReply{}, err
	}
	var ref struct {
		AgentID string `json:"agentId"`
	}
	if err := json.Unmarshal(in.Request.Params, &ref); err != nil {
		return engine.ExecuteReply{}, err
	}
	done := h.collect(ref.AgentID)
	answered := make(chan struct{})
	var result json.RawMessage
	var callErr error
	go func() {
		defer close(answered)
		callErr = h.conn.Call(context.Background(), agentproto.MethodAgentExecute, in.Request.Params, &result)
	}()
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	for waiting := true; waiting; {
		select {
		case <-answered:
			waiting = false
		case <-beat.C:
			activity.RecordHeartbeat(ctx)
		case <-ctx.Done():
			// The host answers a cancelled execute with its cancelled
			// error, which is the reply.
			_ = h.conn.Notify(agentproto.MethodAgentCancel, agentproto.CancelParams{AgentID: ref.AgentID, Call: in.Request.Call})
			<-answered
			waiting = false
		}
	}
	sink := done()
	reply := engine.ExecuteReply{Result: result, Events: sink.lines, Worker: a.hosts.worker, Queue: a.queue}
	if callErr != nil {
		code, msg, data, ok := rpcError(callErr)
		if !ok {
			return engine.ExecuteReply{}, callErr
		}
		reply.Result, reply.Error = nil, &engine.RPCError{Code: code, Message: msg, Data: data}
	}
	return reply, nil
}

// CloseRun closes the host this worker kept for the run.
func (a *agents) CloseRun(_ context.Context, in engine.CloseRun) error {
	a.hosts.close(in.RunID)
	return nil
}
