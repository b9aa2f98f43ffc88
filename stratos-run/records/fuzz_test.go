package records

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// FuzzStatus reads any status.json. What reads writes back as it was read
// (each field, times by instant and offset), and a run that still says
// running is marked crashed as it should be: status crashed, noticed at
// the given time, for the given reason, with an inferred end that leaves
// the run no negative duration.
func FuzzStatus(f *testing.F) {
	f.Add([]byte(`{"executionId":"20261201T100000Z-aaaa0001","workflow":"hello","status":"succeeded","startedAt":"2026-12-01T10:00:00Z","endedAt":"2026-12-01T10:00:02.5Z","exitCode":0}`))
	f.Add([]byte(`{"executionId":"x","workflow":"w","status":"running","startedAt":"2026-12-01T10:00:00+05:30","warnings":["a"]}`))
	f.Add([]byte(`{"status":"crashed","startedAt":"0001-01-01T00:00:00Z","reconciled":{"at":"2026-12-01T10:00:00Z","reason":"gone","inferredEnd":"2026-12-01T09:00:00Z","inferredFrom":"events.jsonl"}}`))
	f.Add([]byte(`{"status":"running","startedAt":"2099-01-01T00:00:00Z"}`))
	at := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	dir := f.TempDir() // one per worker: its inputs run one at a time
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(dir, StatusFile)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := ReadStatus(dir)
		if err != nil {
			return
		}
		written, err := json.Marshal(st)
		if err != nil {
			return // a value JSON reads but cannot write (a time's offset past a day): not a record Stratos writes
		}
		var again Status
		if err := json.Unmarshal(written, &again); err != nil || !reflect.DeepEqual(statusKey(st), statusKey(again)) {
			t.Fatalf("status %+v written as %s reads back as %+v (%v)", st, written, again, err)
		}
		if st.Status != StatusRunning {
			return
		}
		marked, err := MarkCrashed(dir, at, "process gone")
		if err != nil {
			t.Fatalf("MarkCrashed: %v", err)
		}
		reread, err := ReadStatus(dir)
		if err != nil || !reflect.DeepEqual(statusKey(marked), statusKey(reread)) {
			t.Fatalf("MarkCrashed returned %+v, the file says %+v (%v)", marked, reread, err)
		}
		r := marked.Reconciled
		if marked.Status != StatusCrashed || r == nil || !r.At.Equal(at) || r.Reason != "process gone" {
			t.Fatalf("marked crashed as %+v", marked)
		}
		if r.InferredEnd != nil && r.InferredEnd.Before(marked.StartedAt) {
			t.Fatalf("inferred end %v before the start %v", r.InferredEnd, marked.StartedAt)
		}
	})
}

// statusKey is st with its times as printed (instant and offset), for
// comparison: a location read back is a new value, and an empty list is
// written as none.
func statusKey(st Status) any {
	stamp := func(t *time.Time) string {
		if t == nil {
			return "none"
		}
		return t.Format(time.RFC3339Nano)
	}
	warnings := st.Warnings
	if len(warnings) == 0 {
		warnings = nil // omitted when empty
	}
	key := []any{st.ExecutionID, st.Workflow, st.Status, stamp(&st.StartedAt), stamp(st.EndedAt), st.ExitCode, warnings}
	if r := st.Reconciled; r != nil {
		key = append(key, stamp(&r.At), r.Reason, stamp(r.InferredEnd), r.InferredFrom)
	}
	return key
}
