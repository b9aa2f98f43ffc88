package records

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The inferred end is the latest modification among the record's files,
// kept between the run's start and the moment the crash was noticed.
func TestInferEndIsTheLastChangeWithinTheRunsLife(t *testing.T) {
	start := time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC)
	noticed := start.Add(time.Hour)
	dir := t.TempDir()
	touch := func(name string, at time.Time) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	if end, from := InferEnd(dir, start, noticed); from != "" || !end.Equal(noticed) {
		t.Errorf("an empty record: %v from %q, want the moment it was noticed", end, from)
	}
	touch(StatusFile, start)
	touch(EventsFile, start.Add(7*time.Second))
	touch(ConsoleFile, start.Add(9*time.Second))
	if err := os.Mkdir(filepath.Join(dir, "later"), 0o755); err != nil { // not a file the run wrote
		t.Fatal(err)
	}
	if end, from := InferEnd(dir, start, noticed); from != ConsoleFile || !end.Equal(start.Add(9*time.Second)) {
		t.Errorf("InferEnd = %v from %q, want start+9s from %s", end, from, ConsoleFile)
	}
	touch(EventsFile, noticed.Add(time.Hour)) // a clock that went wrong
	if end, _ := InferEnd(dir, start, noticed); !end.Equal(noticed) {
		t.Errorf("a change after the crash was noticed: %v, want %v", end, noticed)
	}
	old := t.TempDir()
	dir = old
	touch(StatusFile, start.Add(-time.Hour)) // older than the run: a clock set back since
	if end, _ := InferEnd(old, start, noticed); !end.Equal(start) {
		t.Errorf("a change before the start: %v, want %v", end, start)
	}
}
