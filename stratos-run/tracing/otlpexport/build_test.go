package otlpexport

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/stratoscli/stratos/stratos-run/tracing"
)

// A model turn that never completed ends with its agent's last event; a
// completion without a start makes no span; a torn last line is skipped.
func TestAddEventsUnpairedBoundaries(t *testing.T) {
	events := `{"type":"agent.invocation.started","timestamp":"2026-12-03T10:00:00Z","agentId":"X/agent-1","executionId":"X","ids":{"invocationId":"X/agent-1/1"}}
{"type":"model.started","timestamp":"2026-12-03T10:00:01Z","agentId":"X/agent-1","executionId":"X","ids":{"invocationId":"X/agent-1/1"},"details":{"turn":1}}
{"type":"tool.completed","timestamp":"2026-12-03T10:00:02Z","agentId":"X/agent-1","executionId":"X","ids":{"invocationId":"X/agent-1/1","toolCallId":"c1"},"details":{"status":"failed"}}
{"type":"agent.invocation.completed","timestamp":"2026-12-03T10:00:03Z","agentId":"X/agent-1","executionId":"X","ids":{"invocationId":"X/agent-1/1"}}
{"type":"model.comp`
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, []byte(events), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := tracetest.NewSpanRecorder()
	tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("test")
	runCtx, run := tracer.Start(context.Background(), "run")
	b := builder{tracer: tracer, runCtx: runCtx, end: time.Now(), byExecution: map[string]context.Context{}}
	if err := b.addEvents(path); err != nil {
		t.Fatal(err)
	}
	run.End()
	names := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		names[s.Name()] = s
	}
	if len(names) != 3 || names["agent"] == nil || names["model"] == nil {
		t.Fatalf("spans = %v, want run, agent, model", names)
	}
	model, agent := names["model"], names["agent"]
	if want := time.Date(2026, 12, 3, 10, 0, 3, 0, time.UTC); !model.EndTime().Equal(want) || !agent.EndTime().Equal(want) {
		t.Errorf("model ends %v, agent ends %v; want both at the agent's last event %v", model.EndTime(), agent.EndTime(), want)
	}
	if model.Parent().SpanID() != agent.SpanContext().SpanID() {
		t.Errorf("the model span's parent is not the agent span")
	}
	if agent.Parent().SpanID() != names["run"].SpanContext().SpanID() {
		t.Errorf("an agent of an invocation missing from the tree is not under the run span")
	}
}

// A run without events.jsonl (no agent ran) has no agent spans.
func TestAddEventsNoFile(t *testing.T) {
	b := builder{}
	if err := b.addEvents(filepath.Join(t.TempDir(), "events.jsonl")); err != nil {
		t.Fatal(err)
	}
}

// A failed child is an error span under its parent; an invocation without
// an end (the run was cut short) ends with the run.
func TestAddTreeFailedChild(t *testing.T) {
	tree := `{"executionId":"P","workflow":"parent","status":"failed","startedAt":"2026-12-03T10:00:00Z",
	  "children":[{"executionId":"C","workflow":"child","status":"failed","startedAt":"2026-12-03T10:00:01Z",
	    "error":{"code":"agent_failed","message":"boom"},"children":[]}]}`
	rec := tracetest.NewSpanRecorder()
	tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("test")
	runEnd := time.Date(2026, 12, 3, 10, 0, 5, 0, time.UTC)
	b := builder{tracer: tracer, runCtx: context.Background(), end: runEnd, byExecution: map[string]context.Context{}}
	if err := b.addTree([]byte(tree)); err != nil {
		t.Fatal(err)
	}
	spans := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		spans[s.Name()] = s
	}
	parent, child := spans["workflow parent"], spans["workflow child"]
	if parent == nil || child == nil {
		t.Fatalf("spans = %v", spans)
	}
	if child.Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("the child's span is not under its parent's")
	}
	if got := child.Status(); got.Code != codes.Error || got.Description != "agent_failed: boom" {
		t.Errorf("child status = %+v", got)
	}
	if !child.EndTime().Equal(runEnd) {
		t.Errorf("child ends %v, want the run's end %v", child.EndTime(), runEnd)
	}
	if _, ok := b.byExecution["C"]; !ok {
		t.Errorf("the child's span is not found by its execution ID")
	}
}

// The run span has the identity stratos-run gave the run's processes,
// under the incoming parent; the spans under it have IDs of their own in
// the same trace.
func TestTheRunSpanHasTheIdentityStratosRunGaveIt(t *testing.T) {
	run := tracing.SpanContext{TraceID: "0af7651916cd43dd8448eb211c80319c", SpanID: "1111222233334444", Sampled: true}
	parent := tracing.SpanContext{TraceID: run.TraceID, SpanID: "b7ad6b7169203331", Sampled: true}
	tree := `{"executionId":"X","workflow":"wf","status":"succeeded","startedAt":"2026-12-03T10:00:00Z","children":[]}`
	for _, p := range []*tracing.SpanContext{&parent, nil} {
		ids, err := newRunIDs(run)
		if err != nil {
			t.Fatal(err)
		}
		rec := tracetest.NewSpanRecorder()
		tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec), sdktrace.WithIDGenerator(ids)).Tracer("test")
		end := time.Date(2026, 12, 3, 10, 0, 5, 0, time.UTC)
		record(tracer, tracing.ExportRequest{Run: run, Parent: p, ExecutionID: "X", Workflow: "wf", Status: "failed",
			StartedAt: end.Add(-5 * time.Second), EndedAt: end, Tree: []byte(tree)}, func(m string) { t.Errorf("warned: %s", m) })
		spans := map[string]sdktrace.ReadOnlySpan{}
		for _, s := range rec.Ended() {
			spans[s.Name()] = s
		}
		rs, ws := spans["run wf"], spans["workflow wf"]
		if rs == nil || ws == nil {
			t.Fatalf("spans = %v", spans)
		}
		if got := rs.SpanContext(); got.TraceID().String() != run.TraceID || got.SpanID().String() != run.SpanID {
			t.Errorf("run span %v, want %+v", got, run)
		}
		wantParent := ""
		if p != nil {
			wantParent = p.SpanID
		}
		if got := rs.Parent(); got.IsValid() != (p != nil) || (p != nil && got.SpanID().String() != wantParent) {
			t.Errorf("run span's parent %v, want %q", got, wantParent)
		}
		if ws.SpanContext().TraceID() != rs.SpanContext().TraceID() || ws.SpanContext().SpanID() == rs.SpanContext().SpanID() ||
			ws.Parent().SpanID() != rs.SpanContext().SpanID() {
			t.Errorf("workflow span %v (parent %v) is not a new span under the run span", ws.SpanContext(), ws.Parent())
		}
		if rs.Status().Code != codes.Error || !rs.EndTime().Equal(end) {
			t.Errorf("run span status %+v, end %v", rs.Status(), rs.EndTime())
		}
	}
}
