package engine

import (
	"context"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
)

// LastHeartbeat decodes into details what the pending activity of type
// activity of workflow id last reported with its heartbeat, and returns
// that activity's attempt; false when it has none (yet) or the workflow
// cannot be described. The submitter follows the code's progress
// (Progress) and the proxy an execute's (ExecuteProgress) this way.
func LastHeartbeat(ctx context.Context, c client.Client, dc converter.DataConverter, id, activity string, details any) (attempt int32, ok bool) {
	desc, err := c.DescribeWorkflow(ctx, id, "")
	if err != nil {
		return 0, false
	}
	for _, a := range desc.RawResponse.GetPendingActivities() {
		if a.GetActivityType().GetName() != activity || a.GetHeartbeatDetails() == nil {
			continue
		}
		if dc.FromPayloads(a.GetHeartbeatDetails(), details) == nil {
			return a.GetAttempt(), true
		}
	}
	return 0, false
}
