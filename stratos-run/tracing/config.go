// Package tracing exports a run as OpenTelemetry spans over OTLP: the run,
// each workflow and child invocation, each agent, each model turn and each
// tool call, one trace per top-level run.
//
// Only the run span is live, and only as an identity: stratos-run names it
// (trace and span IDs, under the incoming TRACEPARENT) for the processes
// the run starts. Every other span is built after the run has ended, from
// the run record: tree.json (child invocations with their start and end
// times) and events.jsonl (agent, model and tool events, each with its
// timestamp and the execution and agent IDs that name its parent). The
// record already carries every parent relation and every time, so
// rebuilding the tree from it gives the right parents across processes
// (stratos-run, the node runner, the agent host) without linking
// OpenTelemetry into the runtime or the agent host, whose memory and
// start-up matter per agent; propagating TRACEPARENT through each of them
// would need a tracer in each. A run whose process is killed exports
// nothing; its record still holds everything.
//
// The spans are built and sent by the exporter (ExporterTool, package
// otlpexport), started with an ExportRequest only for a run that is
// exported: this package does not link OpenTelemetry, so neither does
// stratos-run.
package tracing

import (
	"fmt"
	"strings"
)

// Getenv reads one environment variable (os.Getenv in production).
type Getenv func(string) string

// Traceparent is the W3C trace-context variable stratos honours and passes on.
const Traceparent = "TRACEPARENT"

// config is what the standard OpenTelemetry variables ask for.
type config struct {
	enabled bool
	// skipped says why export is off although something asked for it.
	skipped string
}

// configFrom reads the standard variables. Nothing is exported unless
// OTEL_TRACES_EXPORTER says otlp or an OTLP endpoint is set (the SDK's own
// default of otlp would send every run to localhost:4318 unasked).
// OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none turn it off. Only
// http/protobuf is linked: gRPC would add its whole stack to the binary.
func configFrom(getenv Getenv) config {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return config{}
	}
	exporter := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER"))
	endpoint := getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
	switch exporter {
	case "none":
		return config{}
	case "otlp":
	case "":
		if !endpoint {
			return config{}
		}
	default:
		return config{skipped: fmt.Sprintf("OTEL_TRACES_EXPORTER=%s is not supported (otlp or none)", exporter)}
	}
	protocol := getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if protocol == "" {
		protocol = getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	if protocol != "" && protocol != "http/protobuf" {
		return config{skipped: fmt.Sprintf("OTLP protocol %s is not supported (http/protobuf)", protocol)}
	}
	return config{enabled: true}
}

// Exports reports whether the variables ask for an export that can be
// made: then a run has a span, and the processes it starts name it in
// their environment.
func Exports(getenv Getenv) bool { return configFrom(getenv).enabled }
