// Package otlpexport is the exporter side of package tracing: it builds a
// finished run's spans from its record with the OpenTelemetry SDK and sends
// them over OTLP/HTTP. It is linked only into the exporter binary
// (tracing.ExporterTool), which stratos-run starts for a run that is
// exported.
package otlpexport

import (
	"context"
	"math/rand/v2"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/stratoscli/stratos/stratos-run/tracing"
)

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

// Export builds the run's spans from the record req names and sends them;
// warn hears what could not be read or sent. The exporter reads
// OTEL_EXPORTER_OTLP_* itself (endpoint, headers, timeout, compression).
func Export(req tracing.ExportRequest, warn func(string)) {
	exporter, err := otlptracehttp.New(context.Background())
	if err != nil {
		warn("traces are not exported: " + err.Error())
		return
	}
	ids, err := newRunIDs(req.Run)
	if err != nil {
		warn("traces are not exported: the run span: " + err.Error())
		return
	}
	provider := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exporter),
		sdktrace.WithIDGenerator(ids),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "stratos"))),
	)
	ctx, cancel := context.WithTimeout(context.Background(), tracing.ExportTimeout)
	defer cancel()
	record(provider.Tracer("github.com/stratoscli/stratos/stratos-run"), req, warn)
	if err := provider.Shutdown(ctx); err != nil {
		warn("trace export: " + err.Error())
	}
}

// record makes the run span (with the identity stratos-run gave it) and
// every span of the record under it.
func record(tracer trace.Tracer, req tracing.ExportRequest, warn func(string)) {
	parent := context.Background()
	if p := req.Parent; p != nil {
		sc, err := spanContext(*p, true)
		if err != nil {
			warn("trace: the incoming parent: " + err.Error())
		} else {
			parent = trace.ContextWithRemoteSpanContext(parent, sc)
		}
	}
	runCtx, span := tracer.Start(parent, "run "+req.Workflow, trace.WithTimestamp(req.StartedAt),
		trace.WithAttributes(attrExecutionID.String(req.ExecutionID), attrWorkflow.String(req.Workflow)))
	b := builder{tracer: tracer, runCtx: runCtx, end: req.EndedAt, byExecution: map[string]context.Context{}}
	if err := b.addTree(req.Tree); err != nil {
		warn("trace: the invocation tree: " + err.Error())
	}
	if err := b.addEvents(req.EventsPath); err != nil {
		warn("trace: the events: " + err.Error())
	}
	if err := b.addDecisions(req.EventsPath); err != nil {
		warn("trace: the decisions: " + err.Error())
	}
	span.SetAttributes(attrStatus.String(req.Status))
	if req.Status != "succeeded" {
		span.SetStatus(codes.Error, req.Status)
	}
	span.End(trace.WithTimestamp(req.EndedAt))
}

func spanContext(sc tracing.SpanContext, remote bool) (trace.SpanContext, error) {
	tid, err := trace.TraceIDFromHex(sc.TraceID)
	if err != nil {
		return trace.SpanContext{}, err
	}
	sid, err := trace.SpanIDFromHex(sc.SpanID)
	if err != nil {
		return trace.SpanContext{}, err
	}
	var flags trace.TraceFlags
	if sc.Sampled {
		flags = trace.FlagsSampled
	}
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: flags, Remote: remote}), nil
}

// runIDs gives the first span started (the run span) the IDs stratos-run
// already put in the environment of the run's processes, and every later
// span random ones, as the SDK's own generator does.
type runIDs struct {
	mu    sync.Mutex
	trace trace.TraceID
	span  trace.SpanID
	used  bool
}

func newRunIDs(run tracing.SpanContext) (*runIDs, error) {
	sc, err := spanContext(run, false)
	if err != nil {
		return nil, err
	}
	return &runIDs{trace: sc.TraceID(), span: sc.SpanID()}, nil
}

// NewIDs is called for a span without a parent: only the run span can be
// one.
func (g *runIDs) NewIDs(context.Context) (trace.TraceID, trace.SpanID) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.used {
		g.used = true
		return g.trace, g.span
	}
	var tid trace.TraceID
	fill(tid[:])
	return tid, g.randomSpanID()
}

// NewSpanID is called for a span under a parent: the run span under the
// incoming one, then every span of the run.
func (g *runIDs) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.used {
		g.used = true
		return g.span
	}
	return g.randomSpanID()
}

func (g *runIDs) randomSpanID() trace.SpanID {
	var sid trace.SpanID
	for !sid.IsValid() {
		fill(sid[:])
	}
	return sid
}

// fill fills b with random bytes; span IDs need to be unique, not secret.
func fill(b []byte) {
	for i := range b {
		b[i] = byte(rand.Uint32())
	}
}
