package otlpexport

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

// Attribute keys of a decision's span.
const (
	attrDecisionID = attribute.Key("stratos.decision_id")
	attrKind       = attribute.Key("stratos.decision.kind")
	attrProvider   = attribute.Key("stratos.decision.provider")
	attrModel      = attribute.Key("stratos.decision.model")
	attrEndpoint   = attribute.Key("stratos.decision.endpoint")
	attrSamples    = attribute.Key("stratos.decision.samples")
	attrAnswer     = attribute.Key("stratos.decision.answer")
	attrConfidence = attribute.Key("stratos.decision.confidence")
	attrBasis      = attribute.Key("stratos.decision.basis")
	attrProblem    = attribute.Key("stratos.decision.problem")
)

// addDecisions makes a span per decision, from its decision.started to
// its decision.completed, under the invocation that asked it: named by
// the question's kind, with the provider, model and endpoint, the answer
// and its confidence, each wait for an admission slot and each retry as a
// span event, and an error status
// (code and message) when it failed. A decision that never completed ends
// with the run; one without a start makes no span.
func (b *builder) addDecisions(path string) error {
	open := map[string]trace.Span{}
	err := runs.EachEvent(path, func(e eventapi.Event) {
		at, err := time.Parse(time.RFC3339Nano, e.Timestamp)
		id := e.IDs.DecisionID
		if err != nil || id == "" || e.AgentID != "" {
			return
		}
		switch d := e.Details.(type) {
		case *eventapi.DecisionStarted:
			parent, ok := b.byExecution[e.ExecutionID]
			if !ok {
				parent = b.runCtx
			}
			_, open[id] = b.tracer.Start(parent, "decision "+d.Kind, trace.WithTimestamp(at), trace.WithAttributes(
				attrDecisionID.String(id), attrExecutionID.String(e.ExecutionID), attrKind.String(d.Kind),
				attrProvider.String(d.Provider), attrModel.String(d.Model), attrEndpoint.String(d.Endpoint), attrSamples.Int(d.Samples)))
		case *eventapi.DecisionAdmissionQueued:
			if s, ok := open[id]; ok {
				s.AddEvent("admission.queued", trace.WithTimestamp(at), trace.WithAttributes(attribute.Int("stratos.decision.sample", d.Sample)))
			}
		case *eventapi.DecisionRetry:
			if s, ok := open[id]; ok {
				s.AddEvent("retry", trace.WithTimestamp(at), trace.WithAttributes(
					attribute.Int("stratos.decision.sample", d.Sample), attribute.Int("stratos.decision.attempt", d.Attempt), attrProblem.String(d.Problem)))
			}
		case *eventapi.DecisionCompleted:
			if s, ok := open[id]; ok {
				delete(open, id)
				endDecision(s, d, at)
			}
		}
	})
	for _, s := range open {
		s.End(trace.WithTimestamp(b.end))
	}
	return err
}

// endDecision ends a decision's span with its outcome.
func endDecision(s trace.Span, d *eventapi.DecisionCompleted, at time.Time) {
	s.SetAttributes(attrStatus.String(d.Status))
	if len(d.Answer) > 0 {
		s.SetAttributes(attrAnswer.String(string(d.Answer)), attrBasis.String(d.Basis))
	}
	if d.Confidence != nil {
		s.SetAttributes(attrConfidence.Float64(*d.Confidence))
	}
	if d.Status == eventapi.StatusFailed {
		msg := "failed"
		if d.Error != nil {
			msg = d.Error.Code + ": " + d.Error.Message
		}
		s.SetStatus(codes.Error, msg)
	}
	s.End(trace.WithTimestamp(at))
}
