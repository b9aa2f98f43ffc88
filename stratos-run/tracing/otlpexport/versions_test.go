package otlpexport

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// testdata/events-v0.jsonl holds lines of version 0 of the event
// vocabulary kept from real runs; testdata/events-v1.jsonl the same events
// as version 1 writes them (errors as {code, message}). A record of either
// version, or one whose events switch version halfway, gives the same
// spans.
func TestSpansOfEveryVersionAlike(t *testing.T) {
	read := func(name string) [][]byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	}
	v0, v1 := read("events-v0.jsonl"), read("events-v1.jsonl")
	mixed := append(slices.Clone(v0[:len(v0)/2]), v1[len(v1)/2:]...)
	want := spansOf(t, v0)
	for name, lines := range map[string][][]byte{"version 1": v1, "mixed": mixed} {
		if got := spansOf(t, lines); got != want {
			t.Errorf("the spans of the %s record:\n%s\nwant those of version 0:\n%s", name, got, want)
		}
	}
	for _, span := range []string{
		`agent 07:54:19.425-07:54:19.425 (Error: agent "real": harness claude-code: claude exited: signal: killed) [stratos.agent_id=20261206T075412Z-3cc2a132/agent-1 stratos.execution_id=20261206T075412Z-3cc2a132]`,
		`model 07:54:31.635-07:54:31.703 [stratos.invocation_id=20261206T075427Z-ba312d69/agent-1/1 stratos.turn=0]`,
		`model 07:54:27.942-07:54:28.043 [stratos.invocation_id=20261206T075427Z-ba312d69/agent-2/1 stratos.turn=1]`,
	} {
		if !strings.Contains(want, span+"\n") {
			t.Errorf("no span %s in\n%s", span, want)
		}
	}
}

func clock(t time.Time) string { return t.UTC().Format("15:04:05.000") }

// spansOf is the spans of a record of lines, one per line, sorted.
func spansOf(t *testing.T, lines [][]byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := tracetest.NewSpanRecorder()
	tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("test")
	b := builder{tracer: tracer, runCtx: context.Background(), end: time.Now(), byExecution: map[string]context.Context{}}
	if err := b.addEvents(path); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range rec.Ended() {
		var attrs []string
		for _, a := range s.Attributes() {
			attrs = append(attrs, fmt.Sprintf("%s=%s", a.Key, a.Value.String()))
		}
		slices.Sort(attrs)
		status := ""
		if s.Status().Code != 0 {
			status = fmt.Sprintf(" (%s: %s)", s.Status().Code, s.Status().Description)
		}
		out = append(out, fmt.Sprintf("%s %s-%s%s [%s]", s.Name(), clock(s.StartTime()), clock(s.EndTime()), status, strings.Join(attrs, " ")))
	}
	slices.Sort(out)
	return strings.Join(out, "\n") + "\n"
}
