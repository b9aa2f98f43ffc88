package proxy

import (
	"context"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// reply waits for an execute workflow's reply. The workflow returns its
// agent activity's result unchanged, so the reply is known as soon as the
// server records that activity's completion: read from the execute's
// history (a long poll), it spares the code the workflow's last task (a
// poll, a match and two writes of the server) before its answer. Anything
// else (an agent's cancellation, a history that cannot be read or decoded)
// is answered by the workflow's result.
func (p *Proxy) reply(ctx context.Context, run client.WorkflowRun) (engine.ExecuteReply, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		reply engine.ExecuteReply
		err   error
		early bool // from the history
	}
	answers := make(chan answer, 2)
	go func() {
		var r engine.ExecuteReply
		err := run.Get(ctx, &r)
		answers <- answer{reply: r, err: err}
	}()
	if p.run.Converter != nil {
		go func() {
			if r, ok := completedActivity(ctx, p.client, p.run.Converter, run.GetID(), run.GetRunID()); ok {
				answers <- answer{reply: r, early: true}
			}
		}()
	}
	a := <-answers
	if a.early {
		p.awaitClose(run)
	}
	return a.reply, a.err
}

// closeWait bounds how long the host, when the code ends, waits for the
// execute workflows it answered early to close.
const closeWait = 10 * time.Second

// awaitClose keeps the host (and its worker, which holds the workflow's
// last task) until the execute workflow it answered early has closed:
// ended with the code before that, the task would wait out its timeout
// and then need a code worker of the queue.
func (p *Proxy) awaitClose(run client.WorkflowRun) {
	p.closing.Add(1)
	go func() {
		defer p.closing.Done()
		ctx, cancel := context.WithTimeout(context.Background(), closeWait)
		defer cancel()
		_ = run.Get(ctx, nil)
	}()
}

// completedActivity is the result of the execute's agent activity, read
// from its history as soon as the server records it; false when the
// workflow closes without one, or the history cannot be read.
func completedActivity(ctx context.Context, c client.Client, dc converter.DataConverter, id, runID string) (engine.ExecuteReply, bool) {
	events := c.GetWorkflowHistory(ctx, id, runID, true, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for events.HasNext() {
		e, err := events.Next()
		if err != nil {
			return engine.ExecuteReply{}, false
		}
		switch e.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			var r engine.ExecuteReply
			if err := dc.FromPayloads(e.GetActivityTaskCompletedEventAttributes().GetResult(), &r); err != nil {
				return engine.ExecuteReply{}, false
			}
			return r, true
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
			enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
			enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
			return engine.ExecuteReply{}, false
		}
	}
	return engine.ExecuteReply{}, false
}
