package otlpexport

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// Each decision is a span under the invocation that asked it, from its
// start to its end, with what it asked and answered, its waits for a slot
// and its retries as span events and a failure as an error status; one that never completed ends
// with the run, a completion without a start makes none.
func TestAddDecisions(t *testing.T) {
	events := `{"type":"decision.started","timestamp":"2026-12-03T10:00:00Z","executionId":"X","ids":{"decisionId":"X/decision-1"},"details":{"kind":"choice","provider":"ollama","model":"qwen3:8b","endpoint":"http://127.0.0.1:11434","samples":1}}
{"type":"decision.admission.queued","timestamp":"2026-12-03T10:00:00.5Z","executionId":"X","ids":{"decisionId":"X/decision-1"},"details":{"sample":1}}
{"type":"decision.retry","timestamp":"2026-12-03T10:00:01Z","executionId":"X","ids":{"decisionId":"X/decision-1"},"details":{"sample":1,"attempt":1,"of":3,"problem":"the answer \"purple\" is not one of: red, blue"}}
{"type":"usage","timestamp":"2026-12-03T10:00:01Z","executionId":"X","ids":{"decisionId":"X/decision-1"},"details":{"inputTokens":10,"outputTokens":2}}
{"type":"decision.completed","timestamp":"2026-12-03T10:00:02Z","executionId":"X","ids":{"decisionId":"X/decision-1"},"details":{"status":"completed","answer":"red","confidence":0.9,"basis":"logprobs"}}
{"type":"decision.started","timestamp":"2026-12-03T10:00:03Z","executionId":"C","ids":{"decisionId":"C/decision-1"},"details":{"kind":"verdict","provider":"openai","model":"openai/gpt-4.1-mini","endpoint":"https://api.openai.com/v1","samples":3}}
{"type":"decision.completed","timestamp":"2026-12-03T10:00:04Z","executionId":"C","ids":{"decisionId":"C/decision-1"},"details":{"status":"failed","error":{"code":"decision_timeout","message":"too slow"}}}
{"type":"decision.started","timestamp":"2026-12-03T10:00:05Z","executionId":"X","ids":{"decisionId":"X/decision-2"},"details":{"kind":"score","provider":"ollama","model":"m","endpoint":"e","samples":1}}
{"type":"decision.completed","timestamp":"2026-12-03T10:00:06Z","executionId":"X","ids":{"decisionId":"X/decision-9"},"details":{"status":"completed","answer":1}}
`
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, []byte(events), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := tracetest.NewSpanRecorder()
	tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("test")
	runCtx, run := tracer.Start(context.Background(), "run")
	childCtx, child := tracer.Start(runCtx, "workflow child")
	runEnd := time.Date(2026, 12, 3, 10, 0, 9, 0, time.UTC)
	b := builder{tracer: tracer, runCtx: runCtx, end: runEnd, byExecution: map[string]context.Context{"C": childCtx}}
	if err := b.addDecisions(path); err != nil {
		t.Fatal(err)
	}
	child.End()
	run.End()
	spans := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		spans[s.Name()] = s
	}
	if len(spans) != 5 {
		t.Fatalf("spans %v: want run, workflow child and three decisions", spans)
	}
	choice, verdict, score := spans["decision choice"], spans["decision verdict"], spans["decision score"]
	at := func(sec int) time.Time { return time.Date(2026, 12, 3, 10, 0, sec, 0, time.UTC) }
	if !choice.StartTime().Equal(at(0)) || !choice.EndTime().Equal(at(2)) || choice.Parent().SpanID() != spans["run"].SpanContext().SpanID() {
		t.Errorf("choice span %v–%v", choice.StartTime(), choice.EndTime())
	}
	attrs := map[attribute.Key]attribute.Value{}
	for _, kv := range choice.Attributes() {
		attrs[kv.Key] = kv.Value
	}
	if attrs[attrDecisionID].AsString() != "X/decision-1" || attrs[attrModel].AsString() != "qwen3:8b" || attrs[attrAnswer].AsString() != `"red"` ||
		attrs[attrConfidence].AsFloat64() != 0.9 || attrs[attrBasis].AsString() != "logprobs" || attrs[attrStatus].AsString() != "completed" {
		t.Errorf("choice attributes %v", attrs)
	}
	if ev := choice.Events(); len(ev) != 2 || ev[0].Name != "admission.queued" || ev[1].Name != "retry" || !ev[1].Time.Equal(at(1)) {
		t.Errorf("choice events %v", ev)
	}
	if verdict.Parent().SpanID() != spans["workflow child"].SpanContext().SpanID() ||
		verdict.Status().Code != codes.Error || verdict.Status().Description != "decision_timeout: too slow" {
		t.Errorf("verdict span: parent %v, status %v", verdict.Parent(), verdict.Status())
	}
	if !score.EndTime().Equal(runEnd) {
		t.Errorf("an unfinished decision ends %v, want the run's end", score.EndTime())
	}
}
