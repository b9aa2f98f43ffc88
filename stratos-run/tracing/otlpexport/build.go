package otlpexport

import (
	"context"
	"encoding/json"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

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

// agentEvent is the part of an events.jsonl line the spans need.
type agentEvent struct {
	Type        string    `json:"type"`
	Timestamp   time.Time `json:"timestamp"`
	AgentID     string    `json:"agentId"`
	ExecutionID string    `json:"executionId"`
	IDs         struct {
		InvocationID string `json:"invocationId"`
		ToolCallID   string `json:"toolCallId"`
	} `json:"ids"`
	Details struct {
		Turn     int    `json:"turn"`
		Name     string `json:"name"`
		ConfigID string `json:"configId"`
		Error    string `json:"error"`
		ToolName string `json:"toolName"`
		Status   string `json:"status"`
	} `json:"details"`
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

// readAgentEvents groups the complete lines of events.jsonl by agent, in
// the order agents first appear. Lines that are not agent events (workflow
// progress) are left out.
func readAgentEvents(path string) (map[string][]agentEvent, []string, error) {
	byAgent := map[string][]agentEvent{}
	var order []string
	err := runs.EachEvent(path, func(line []byte) {
		var e agentEvent
		if json.Unmarshal(line, &e) != nil || e.AgentID == "" {
			return // not an agent's event
		}
		if _, seen := byAgent[e.AgentID]; !seen {
			order = append(order, e.AgentID)
		}
		byAgent[e.AgentID] = append(byAgent[e.AgentID], e)
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
	ctx, span := b.tracer.Start(parent, "agent", trace.WithTimestamp(first.Timestamp),
		trace.WithAttributes(attrAgentID.String(first.AgentID), attrExecutionID.String(first.ExecutionID)))
	open := map[string]trace.Span{}
	for _, e := range events {
		describeAgent(span, e)
		b.addAgentEvent(ctx, open, e)
	}
	for _, s := range open {
		s.End(trace.WithTimestamp(last.Timestamp))
	}
	span.End(trace.WithTimestamp(last.Timestamp))
}

// describeAgent names the agent span from its executes: the agent's name
// and configuration, and an error status when an execute failed.
func describeAgent(span trace.Span, e agentEvent) {
	switch {
	case e.Type == "agent.invocation.started" && e.Details.Name != "":
		span.SetAttributes(attrAgentName.String(e.Details.Name))
		if e.Details.ConfigID != "" {
			span.SetAttributes(attrConfigID.String(e.Details.ConfigID))
		}
	case e.Type == "agent.invocation.completed" && e.Details.Status == "failed":
		span.SetStatus(codes.Error, e.Details.Error)
	}
}

// addAgentEvent opens a model or tool span on its start event and ends it
// on its completion. A completion without a start is left alone: missing
// boundaries are not invented.
func (b *builder) addAgentEvent(agent context.Context, open map[string]trace.Span, e agentEvent) {
	switch e.Type {
	case "model.started":
		_, s := b.tracer.Start(agent, "model", trace.WithTimestamp(e.Timestamp), trace.WithAttributes(
			attrInvocation.String(e.IDs.InvocationID), attrTurn.Int(e.Details.Turn)))
		open[modelKey(e)] = s
	case "model.completed":
		endOpen(open, modelKey(e), e, nil)
	case "tool.started":
		_, s := b.tracer.Start(agent, "tool "+e.Details.ToolName, trace.WithTimestamp(e.Timestamp), trace.WithAttributes(
			attrInvocation.String(e.IDs.InvocationID), attrToolName.String(e.Details.ToolName), attrToolCallID.String(e.IDs.ToolCallID)))
		open[toolKey(e)] = s
	case "tool.completed":
		endOpen(open, toolKey(e), e, []attribute.KeyValue{attrStatus.String(e.Details.Status)})
	}
}

func endOpen(open map[string]trace.Span, key string, e agentEvent, attrs []attribute.KeyValue) {
	s, ok := open[key]
	if !ok {
		return
	}
	delete(open, key)
	s.SetAttributes(attrs...)
	if e.Details.Status == "failed" {
		s.SetStatus(codes.Error, "failed")
	}
	s.End(trace.WithTimestamp(e.Timestamp))
}

func modelKey(e agentEvent) string { return "model " + e.IDs.InvocationID }
func toolKey(e agentEvent) string  { return "tool " + e.IDs.ToolCallID }
