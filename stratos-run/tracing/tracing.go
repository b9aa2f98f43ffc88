package tracing

import (
	"context"
	"io"
	"time"

	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/shared/toolcall"
)

// ExportTimeout bounds how long the exporter waits for the collector.
const ExportTimeout = 5 * time.Second

// exporterGrace is how much longer than ExportTimeout stratos-run waits for
// the exporter (its own start and the spans' building) before killing it.
const exporterGrace = 3 * time.Second

// Run is the trace of one top-level run. A nil *Run exports nothing; every
// method is safe on it.
type Run struct {
	span        SpanContext
	parent      *SpanContext
	executionID string
	workflow    string
	startedAt   time.Time
}

// Start names the run span when the standard variables ask for export,
// under the incoming TRACEPARENT when there is a valid one. It returns nil
// when nothing is to be exported: the variables do not ask for it, the
// incoming parent is not sampled (so the run is not either), or the
// exporter is not installed; warn hears why an export that was asked for
// cannot be made.
func Start(getenv Getenv, warn func(string), executionID, workflow string, startedAt time.Time) *Run {
	cfg := configFrom(getenv)
	if !cfg.enabled {
		if cfg.skipped != "" {
			warn("traces are not exported: " + cfg.skipped)
		}
		return nil
	}
	if _, err := sibling.Find(ExporterTool); err != nil {
		warn("traces are not exported: " + err.Error())
		return nil
	}
	r := &Run{executionID: executionID, workflow: workflow, startedAt: startedAt,
		span: SpanContext{TraceID: randomHex(16), SpanID: randomHex(8), Sampled: true}}
	if p, ok := parseTraceparent(getenv(Traceparent)); ok {
		if !p.Sampled {
			return nil
		}
		r.parent, r.span.TraceID = &p, p.TraceID
	}
	return r
}

// Traceparent is the W3C traceparent naming the run span, for the
// environment of the processes the run starts (and the harness processes
// they start in turn); "" without a trace.
func (r *Run) Traceparent() string {
	if r == nil {
		return ""
	}
	return r.span.String()
}

// Finish exports the run: the exporter builds the spans of its
// invocations, agents, model turns and tool calls from the record, ends
// the run span and sends them all. tree is the record's tree.json;
// eventsPath its events.jsonl. The exporter's warnings (what could not be
// read or sent) go to stderr; warn hears why it could not run.
func (r *Run) Finish(status string, endedAt time.Time, tree []byte, eventsPath string, stderr io.Writer, warn func(string)) {
	if r == nil {
		return
	}
	req := ExportRequest{Run: r.span, Parent: r.parent, ExecutionID: r.executionID, Workflow: r.workflow,
		Status: status, StartedAt: r.startedAt, EndedAt: endedAt, Tree: tree, EventsPath: eventsPath}
	ctx, cancel := context.WithTimeout(context.Background(), ExportTimeout+exporterGrace)
	defer cancel()
	if err := toolcall.Run(ctx, toolcall.Call{Tool: ExporterTool, Input: req, Stderr: stderr}, nil); err != nil {
		warn("trace export: " + err.Error())
	}
}
