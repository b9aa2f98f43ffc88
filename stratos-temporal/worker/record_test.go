package worker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A finished attempt's record gives its status, output and complete
// event lines; one without a final status is known by its exit code.
func TestCodeRecordState(t *testing.T) {
	rec, err := newCodeRecord(t.TempDir(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(rec.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if s := rec.state(130, "w1"); s.Status != "cancelled" || *s.ExitCode != 130 || s.EndedAt == nil {
		t.Errorf("no status: %+v, want cancelled by the exit code", s)
	}
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(rec.dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("status.json", `{"status": "succeeded", "exitCode": 0, "endedAt": "2026-12-07T00:00:00Z"}`)
	write("output.json", "{\n  \"text\": \"hi\"\n}\n")
	write("events.jsonl", "{\"type\":\"a\"}\n{\"type\":\"b\"}\n{\"type\":\"c")
	s := rec.state(0, "w1")
	if s.Status != "succeeded" || string(s.Output) != `{"text":"hi"}` || s.WorkerRecord != rec.id || s.Worker != "w1" {
		t.Errorf("state = %+v", s)
	}
	if len(s.Events) != 2 || string(s.Events[1]) != `{"type":"b"}` || s.EventsCut {
		t.Errorf("events = %q (cut %v), want the two complete lines", s.Events, s.EventsCut)
	}
	total, tail := rec.eventTail()
	if total != int64(len("{\"type\":\"a\"}\n{\"type\":\"b\"}\n")) || !strings.HasSuffix(string(tail), "{\"type\":\"b\"}\n") {
		t.Errorf("eventTail = %d, %q", total, tail)
	}
}

// A heartbeat's events are whole lines, at most eventTailBytes of them,
// however long the file.
func TestEventTailIsWholeLines(t *testing.T) {
	rec, err := newCodeRecord(t.TempDir(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(rec.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"model.delta","text":"0123456789abcdefghij"}` + "\n"
	data := strings.Repeat(line, 2*eventTailBytes/len(line))
	if err := os.WriteFile(filepath.Join(rec.dir, "events.jsonl"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	total, tail := rec.eventTail()
	if total != int64(len(data)) || len(tail) > eventTailBytes || len(tail) < eventTailBytes-len(line) ||
		!strings.HasPrefix(string(tail), line) || len(tail)%len(line) != 0 {
		t.Errorf("eventTail = %d and %d bytes starting %q", total, len(tail), tail[:min(len(tail), 40)])
	}
}
