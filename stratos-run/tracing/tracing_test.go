package tracing

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/sibling"
)

// Without the variables, Start gives a nil Run, whose methods do nothing.
func TestStartDisabled(t *testing.T) {
	r := Start(func(string) string { return "" }, func(m string) { t.Errorf("warned: %s", m) }, "X", "wf", time.Now())
	if r != nil {
		t.Fatalf("Start without OTEL variables = %v, want nil", r)
	}
	if tp := r.Traceparent(); tp != "" {
		t.Errorf("Traceparent() = %q", tp)
	}
	r.Finish("succeeded", time.Now(), nil, "", nil, func(m string) { t.Errorf("warned: %s", m) })
}

// withExporter makes Start find an exporter (an empty executable: Start
// only looks for it).
func withExporter(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ExporterTool), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(sibling.EnvBinDir, dir)
}

func env(vars map[string]string) Getenv { return func(k string) string { return vars[k] } }

const incoming = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

// Under a sampled incoming parent the run span is in the parent's trace,
// with a span ID of its own; without one it starts a trace.
func TestStartNamesTheRunSpan(t *testing.T) {
	withExporter(t)
	noWarn := func(m string) { t.Errorf("warned: %s", m) }
	r := Start(env(map[string]string{"OTEL_TRACES_EXPORTER": "otlp", Traceparent: incoming}), noWarn, "X", "wf", time.Now())
	tp := r.Traceparent()
	if !strings.HasPrefix(tp, "00-0af7651916cd43dd8448eb211c80319c-") || !strings.HasSuffix(tp, "-01") || strings.Contains(tp, "b7ad6b7169203331") {
		t.Errorf("Traceparent() = %q, want the incoming trace, a new span, sampled", tp)
	}
	if r.parent == nil || r.parent.SpanID != "b7ad6b7169203331" {
		t.Errorf("parent = %+v", r.parent)
	}
	for _, in := range []string{"", "garbage", "00-00000000000000000000000000000000-b7ad6b7169203331-01"} {
		r := Start(env(map[string]string{"OTEL_TRACES_EXPORTER": "otlp", Traceparent: in}), noWarn, "X", "wf", time.Now())
		sc, ok := parseTraceparent(r.Traceparent())
		if !ok || !sc.Sampled || r.parent != nil || strings.Contains(r.Traceparent(), "0af7651916cd43dd8448eb211c80319c") {
			t.Errorf("TRACEPARENT=%q: Traceparent() = %q, parent %+v; want a new sampled trace", in, r.Traceparent(), r.parent)
		}
	}
}

// An incoming parent that is not sampled leaves the run unsampled:
// nothing is exported, and the incoming TRACEPARENT is passed on as it is.
func TestStartUnderAnUnsampledParent(t *testing.T) {
	withExporter(t)
	in := strings.TrimSuffix(incoming, "01") + "00"
	if r := Start(env(map[string]string{"OTEL_TRACES_EXPORTER": "otlp", Traceparent: in}), func(string) {}, "X", "wf", time.Now()); r != nil {
		t.Errorf("Start under an unsampled parent = %+v, want nil", r)
	}
}

// Without the exporter installed, an export asked for is a warning.
func TestStartWithoutTheExporter(t *testing.T) {
	t.Setenv(sibling.EnvBinDir, t.TempDir())
	t.Setenv("PATH", t.TempDir())
	var warned []string
	r := Start(env(map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}), func(m string) { warned = append(warned, m) }, "X", "wf", time.Now())
	if r != nil || len(warned) != 1 || !strings.Contains(warned[0], ExporterTool+" not found") {
		t.Errorf("Start = %v, warned %q", r, warned)
	}
}

func TestParseTraceparent(t *testing.T) {
	cases := []struct {
		in      string
		ok      bool
		sampled bool
	}{
		{incoming, true, true},
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00", true, false},
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-03", true, true},
		{"01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-future", true, true},
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra", false, false},
		{"ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", false, false},
		{"00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01", false, false},
		{"00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", false, false},
		{"00-0af7651916cd43dd8448eb211c8031-b7ad6b7169203331-01", false, false},
		{"", false, false},
	}
	for _, c := range cases {
		sc, ok := parseTraceparent(c.in)
		if ok != c.ok || sc.Sampled != c.sampled {
			t.Errorf("parseTraceparent(%q) = %+v, %v; want ok=%v sampled=%v", c.in, sc, ok, c.ok, c.sampled)
		}
		if ok && c.in[:2] == "00" && sc.String()[:52] != c.in[:52] {
			t.Errorf("String() = %q, want the IDs of %q", sc.String(), c.in)
		}
	}
}
