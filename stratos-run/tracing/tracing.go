package tracing

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// exportTimeout bounds how long the end of a run waits for the collector.
const exportTimeout = 5 * time.Second

// Attribute keys every span carries where they apply.
const (
	attrExecutionID = attribute.Key("stratos.execution_id")
	attrWorkflow    = attribute.Key("stratos.workflow")
	attrStatus      = attribute.Key("stratos.status")
	attrAgentID     = attribute.Key("stratos.agent_id")
	attrAgentName   = attribute.Key("stratos.agent.name")
	attrConfigID    = attribute.Key("stratos.agent.config_id")
	attrInvocation  = attribute.Key("stratos.invocation_id")
	attrTurn        = attribute.Key("stratos.turn")
	attrToolName    = attribute.Key("stratos.tool.name")
	attrToolCallID  = attribute.Key("stratos.tool.call_id")
)

// Run is the trace of one top-level run. A nil *Run exports nothing; every
// method is safe on it.
type Run struct {
	provider *sdktrace.TracerProvider
	tracer   trace.Tracer
	ctx      context.Context // carries the run span
	span     trace.Span
}

// Start begins the run span when the standard variables ask for export,
// under the incoming TRACEPARENT when there is one. It returns nil when
// nothing is to be exported; warn hears why an export that was asked for
// cannot be made.
func Start(getenv Getenv, warn func(string), executionID, workflow string, startedAt time.Time) *Run {
	cfg := configFrom(getenv)
	if !cfg.enabled {
		if cfg.skipped != "" {
			warn("traces are not exported: " + cfg.skipped)
		}
		return nil
	}
	// The exporter reads OTEL_EXPORTER_OTLP_* itself (endpoint, headers,
	// timeout, compression).
	exporter, err := otlptracehttp.New(context.Background())
	if err != nil {
		warn("traces are not exported: " + err.Error())
		return nil
	}
	provider := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exporter),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "stratos"))),
	)
	tracer := provider.Tracer("github.com/stratoscli/stratos/stratos-run")
	parent := propagation.TraceContext{}.Extract(context.Background(),
		propagation.MapCarrier{"traceparent": getenv(Traceparent)})
	ctx, span := tracer.Start(parent, "run "+workflow, trace.WithTimestamp(startedAt),
		trace.WithAttributes(attrExecutionID.String(executionID), attrWorkflow.String(workflow)))
	return &Run{provider: provider, tracer: tracer, ctx: ctx, span: span}
}

// Traceparent is the W3C traceparent naming the run span, for the
// environment of the processes the run starts (and the harness processes
// they start in turn); "" without a trace.
func (r *Run) Traceparent() string {
	if r == nil {
		return ""
	}
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(r.ctx, carrier)
	return carrier["traceparent"]
}

// Finish builds the spans of the run's invocations, agents, model turns and
// tool calls from its record, ends the run span and exports them all. tree
// is the record's tree.json; eventsPath its events.jsonl (missing when no
// agent ran). warn hears what could not be read or exported.
func (r *Run) Finish(status string, endedAt time.Time, tree []byte, eventsPath string, warn func(string)) {
	if r == nil {
		return
	}
	b := builder{tracer: r.tracer, runCtx: r.ctx, end: endedAt, byExecution: map[string]context.Context{}}
	if err := b.addTree(tree); err != nil {
		warn("trace: the invocation tree: " + err.Error())
	}
	if err := b.addEvents(eventsPath); err != nil {
		warn("trace: the events: " + err.Error())
	}
	r.span.SetAttributes(attrStatus.String(status))
	if status != "succeeded" {
		r.span.SetStatus(codes.Error, status)
	}
	r.span.End(trace.WithTimestamp(endedAt))
	ctx, cancel := context.WithTimeout(context.Background(), exportTimeout)
	defer cancel()
	if err := r.provider.Shutdown(ctx); err != nil {
		warn("trace export: " + err.Error())
	}
}
