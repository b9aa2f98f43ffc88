package otlpexport

import (
	"context"
	"encoding/json"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

// builder turns a run record into spans under the run span.
type builder struct {
	tracer      trace.Tracer
	runCtx      context.Context
	end         time.Time                  // the run's end: the end of anything left open
	byExecution map[string]context.Context // workflow invocation spans by execution ID
}

// invocationNode is one node of tree.json, as the runtime reports it.
type invocationNode struct {
	ExecutionID string     `json:"executionId"`
	Workflow    string     `json:"workflow"`
	Status      string     `json:"status"`
	StartedAt   time.Time  `json:"startedAt"`
	EndedAt     *time.Time `json:"endedAt"`
	Error       *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Children []invocationNode `json:"children"`
}

// addTree makes a span per workflow invocation, children under parents.
func (b *builder) addTree(tree []byte) error {
	if len(tree) == 0 || string(tree) == "null" {
		return nil
	}
	var top invocationNode
	if err := json.Unmarshal(tree, &top); err != nil {
		return err
	}
	b.addInvocation(b.runCtx, top)
	return nil
}

func (b *builder) addInvocation(parent context.Context, n invocationNode) {
	ctx, span := b.tracer.Start(parent, "workflow "+n.Workflow, trace.WithTimestamp(n.StartedAt),
		trace.WithAttributes(attrExecutionID.String(n.ExecutionID), attrWorkflow.String(n.Workflow), attrStatus.String(n.Status)))
	b.byExecution[n.ExecutionID] = ctx
	for _, c := range n.Children {
		b.addInvocation(ctx, c)
	}
	if n.Error != nil {
		span.SetStatus(codes.Error, n.Error.Code+": "+n.Error.Message)
	}
	end := b.end
	if n.EndedAt != nil {
		end = *n.EndedAt
	}
	span.End(trace.WithTimestamp(end))
}

// agentEvent is an agent's event, with its time read.
type agentEvent struct {
	eventapi.Event
	at time.Time
}

// addEvents makes a span per agent (from its first to its last event) under
// the invocation that created it, and a span per model turn and tool call
// under the agent.
func (b *builder) addEvents(path string) error {
	byAgent, order, err := readAgentEvents(path)
	if err != nil {
		return err
	}
	for _, id := range order {
		b.addAgent(byAgent[id])
	}
	return nil
}

// readAgentEvents groups the events of events.jsonl (of any vocabulary
// version) by agent, in the order agents first appear. Events that are not
// an agent's (workflow progress) or have no time are left out.
func readAgentEvents(path string) (map[string][]agentEvent, []string, error) {
	byAgent := map[string][]agentEvent{}
	var order []string
	err := runs.EachEvent(path, func(e eventapi.Event) {
		at, err := time.Parse(time.RFC3339Nano, e.Timestamp)
		if err != nil || e.AgentID == "" {
			return
		}
		if _, seen := byAgent[e.AgentID]; !seen {
			order = append(order, e.AgentID)
		}
		byAgent[e.AgentID] = append(byAgent[e.AgentID], agentEvent{Event: e, at: at})
	})
	if err != nil {
		return nil, nil, err
	}
	return byAgent, order, nil
}

func (b *builder) addAgent(events []agentEvent) {
	first, last := events[0], events[len(events)-1]
	parent, ok := b.byExecution[first.ExecutionID]
	if !ok {
		parent = b.runCtx
	}
	ctx, span := b.tracer.Start(parent, "agent", trace.WithTimestamp(first.at),
		trace.WithAttributes(attrAgentID.String(first.AgentID), attrExecutionID.String(first.ExecutionID)))
	open := map[string]trace.Span{}
	for _, e := range events {
		describeAgent(span, e)
		b.addAgentEvent(ctx, open, e)
	}
	for _, s := range open {
		s.End(trace.WithTimestamp(last.at))
	}
	span.End(trace.WithTimestamp(last.at))
}

// describeAgent names the agent span from its executes: the agent's name
// and configuration, and an error status (the error's message) when an
// execute failed.
func describeAgent(span trace.Span, e agentEvent) {
	switch d := e.Details.(type) {
	case *eventapi.AgentInvocationStarted:
		if d.Name == "" {
			return
		}
		span.SetAttributes(attrAgentName.String(d.Name))
		if d.ConfigID != "" {
			span.SetAttributes(attrConfigID.String(d.ConfigID))
		}
	case *eventapi.AgentInvocationCompleted:
		if d.Status != eventapi.StatusFailed {
			return
		}
		var msg string
		if d.Error != nil {
			msg = d.Error.Message
		}
		span.SetStatus(codes.Error, msg)
	}
}

// addAgentEvent opens a model or tool span on its start event and ends it
// on its completion. A completion without a start is left alone: missing
// boundaries are not invented.
func (b *builder) addAgentEvent(agent context.Context, open map[string]trace.Span, e agentEvent) {
	switch d := e.Details.(type) {
	case *eventapi.ModelStarted:
		_, s := b.tracer.Start(agent, "model", trace.WithTimestamp(e.at), trace.WithAttributes(
			attrInvocation.String(e.IDs.InvocationID), attrTurn.Int(d.Turn)))
		open[modelKey(e)] = s
	case *eventapi.ModelCompleted:
		endOpen(open, modelKey(e), e.at, d.Status, nil)
	case *eventapi.ToolStarted:
		_, s := b.tracer.Start(agent, "tool "+d.ToolName, trace.WithTimestamp(e.at), trace.WithAttributes(
			attrInvocation.String(e.IDs.InvocationID), attrToolName.String(d.ToolName), attrToolCallID.String(e.IDs.ToolCallID)))
		open[toolKey(e)] = s
	case *eventapi.ToolCompleted:
		endOpen(open, toolKey(e), e.at, d.Status, []attribute.KeyValue{attrStatus.String(d.Status)})
	}
}

// endOpen ends the span open under key at the time of its completion, an
// error when the completion's status says it failed.
func endOpen(open map[string]trace.Span, key string, at time.Time, status string, attrs []attribute.KeyValue) {
	s, ok := open[key]
	if !ok {
		return
	}
	delete(open, key)
	s.SetAttributes(attrs...)
	if status == eventapi.StatusFailed {
		s.SetStatus(codes.Error, "failed")
	}
	s.End(trace.WithTimestamp(at))
}

func modelKey(e agentEvent) string { return "model " + e.IDs.InvocationID }
func toolKey(e agentEvent) string  { return "tool " + e.IDs.ToolCallID }
