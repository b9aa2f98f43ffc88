package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// reapEvery is how often a worker looks for hosts whose run ended
// without closing them here, and for the checkouts of ended runs. A run's
// end asks each of its workers to close its host, but waits only a few
// seconds for the answer: a worker whose activity slots were all taken by
// other runs' agents then, or that was cut off from the server, would
// otherwise keep the host, its harness processes and the run's checkout
// until it stops.
const reapEvery = time.Minute

// describeWait bounds the question whether a run ended.
const describeWait = 10 * time.Second

// runEnded reports whether the run's workflow is closed (or no longer
// known to the server).
type runEnded func(ctx context.Context, runID string) (bool, error)

// workflowEnded asks the server.
func workflowEnded(c client.Client) runEnded {
	return func(ctx context.Context, runID string) (bool, error) {
		ctx, cancel := context.WithTimeout(ctx, describeWait)
		defer cancel()
		d, err := c.DescribeWorkflow(ctx, runID, "")
		var nf *serviceerror.NotFound
		if errors.As(err, &nf) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		return d.Status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, nil
	}
}

// reap closes, every reapEvery until ctx is done, the hosts of runs that
// ended, and removes the checkouts those runs left here: at once, for
// what the worker left when it last stopped, and then each time.
func (a *agents) reap(ctx context.Context, ended runEnded) {
	t := time.NewTicker(reapEvery)
	defer t.Stop()
	for {
		a.reapEnded(ctx, ended)
		a.repos.sweep(ctx, ended, a.hosts.has)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// reapEnded closes the hosts of runs that ended, among those with no
// execute in flight here (a run with one is running). A run the server
// cannot answer for now is asked again next time.
func (a *agents) reapEnded(ctx context.Context, ended runEnded) {
	for _, runID := range a.hosts.idleRuns() {
		done, err := ended(ctx, runID)
		if err != nil || !done {
			continue
		}
		fmt.Fprintf(a.hosts.stderr, "stratos worker %s: run %s ended without closing its host here: closing it\n", a.hosts.worker, runID)
		_ = a.CloseRun(ctx, engine.CloseRun{RunID: runID})
	}
}
