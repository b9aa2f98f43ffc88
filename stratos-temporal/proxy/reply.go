package proxy

import (
	"context"

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
	}
	answers := make(chan answer, 2)
	go func() {
		var r engine.ExecuteReply
		err := run.Get(ctx, &r)
		answers <- answer{r, err}
	}()
	if p.run.Converter != nil {
		go func() {
			if r, ok := completedActivity(ctx, p.client, p.run.Converter, run.GetID(), run.GetRunID()); ok {
				answers <- answer{reply: r}
			}
		}()
	}
	a := <-answers
	return a.reply, a.err
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
