package tracing

import (
	"encoding/json"
	"time"
)

// ExporterTool is the binary that exports a run's trace. It is a process
// of its own, started only when a run is exported, because the
// OpenTelemetry OTLP exporter costs every process that links it about
// 3 ms of start-up and 6 MB of binary: stratos-run, which starts for every
// run, does not link it.
const ExporterTool = "stratos-run-otlp"

// ExportRequest is what stratos-run sends the exporter on its stdin, as
// JSON: the run span, already named in the environment of the run's
// processes, and where its record is. The exporter builds every other span
// from the record (tree.json and events.jsonl) and reads the
// OTEL_EXPORTER_OTLP_* variables itself.
type ExportRequest struct {
	Run         SpanContext     `json:"run"`
	Parent      *SpanContext    `json:"parent,omitempty"` // the incoming TRACEPARENT
	ExecutionID string          `json:"executionId"`
	Workflow    string          `json:"workflow"`
	Status      string          `json:"status"`
	StartedAt   time.Time       `json:"startedAt"`
	EndedAt     time.Time       `json:"endedAt"`
	Tree        json.RawMessage `json:"tree,omitempty"` // tree.json
	EventsPath  string          `json:"eventsPath"`     // events.jsonl, missing when no agent ran
}
