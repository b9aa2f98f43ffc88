package adapter

// Event types adapters emit. Every adapter maps its harness's native
// stream onto these names, so a workflow's event record reads the same
// whatever harness ran it.
const (
	// EventModelStarted: a model round trip began (details: model).
	EventModelStarted = "model.started"
	// EventMessageDelta: streamed text or reasoning (details: kind, text).
	EventMessageDelta = "message.delta"
	// EventModelCompleted: a model round trip ended (details: model,
	// stopReason, usage).
	EventModelCompleted = "model.completed"
	// EventModelRetry: the harness retries a failed model request.
	EventModelRetry = "model.retry"
	// EventModelUnavailable: a candidate model was refused and the adapter
	// moves to the next one of the agent's list.
	EventModelUnavailable = "model.unavailable"
	// EventToolStarted and EventToolCompleted bracket one tool call (IDs:
	// toolCallId; details: toolName, input / output or error).
	EventToolStarted   = "tool.started"
	EventToolCompleted = "tool.completed"
	// EventBackgroundStarted, EventBackgroundActivity and
	// EventBackgroundCompleted follow work that outlives its turn (IDs:
	// taskId).
	EventBackgroundStarted   = "background.started"
	EventBackgroundActivity  = "background.activity"
	EventBackgroundCompleted = "background.completed"
	// EventCompactionStarted and EventCompactionCompleted bracket the
	// harness compacting its conversation.
	EventCompactionStarted   = "compaction.started"
	EventCompactionCompleted = "compaction.completed"
	// EventUsage reports one turn's token usage (details: inputTokens,
	// outputTokens, and what else the harness measures).
	EventUsage = "usage"
)
