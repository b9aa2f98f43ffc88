package runs

import (
	"reflect"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/stratos-run/records"
)

func indexSample() []indexEntry {
	start := time.Date(2026, 12, 3, 9, 48, 0, 123456789, time.FixedZone("X", 5*3600+30*60))
	end, zero, two := start.Add(90*time.Second).UTC(), 0, 2
	inferred := end.Add(-time.Minute)
	return []indexEntry{
		{run: Run{ExecutionID: "20261203T094800Z-aaaa0001", Workflow: "review", Status: records.StatusSucceeded,
			StartedAt: start, EndedAt: &end, DurationMs: 90000, PID: 4242, ExitCode: &zero},
			status: filestat.Stat{Dev: 2049, Ino: 1 << 40, Size: 180, Mtime: end.UnixNano(), Ctime: end.UnixNano() + 1}},
		{run: Run{ExecutionID: "20261203T094801Z-bbbb0002", Workflow: "caf\u00e9 \xff", Status: records.StatusCrashed,
			StartedAt: start.UTC(), DurationMs: -1, PID: 1 << 30, ExitCode: &two,
			Reconciled: &records.Reconciliation{At: end, Reason: "process gone"}},
			status: filestat.Stat{Dev: 1<<64 - 1, Ino: 1, Size: -1, Mtime: -5, Ctime: 1<<63 - 1}},
		{run: Run{ExecutionID: "20261203T094802Z-cccc0003", Workflow: "w", Status: records.StatusCrashed,
			StartedAt: start, DurationMs: 30000, PID: 7, ResumedFrom: "20261203T094801Z-bbbb0002",
			Reconciled: &records.Reconciliation{At: end, Reason: "gone", InferredEnd: &inferred, InferredFrom: "events.jsonl"}}},
		{run: Run{ExecutionID: "20261203T094803Z-dddd0004", Workflow: "w", Status: records.StatusFailed,
			StartedAt: start, EndedAt: &end, DurationMs: 1, PID: 8, ExitCode: &two, ResumedFrom: "20261203T094802Z-cccc0003"}},
		{run: Run{ExecutionID: "20261203T094804Z-eeee0005", Workflow: "w", Status: records.StatusSucceeded,
			StartedAt: start, EndedAt: &end, DurationMs: 2, PID: 9, ExitCode: &zero, AttemptOf: "stratos-20261203T094800Z-aaaa0001"}},
		{run: Run{ExecutionID: "", Workflow: "", Status: "", StartedAt: time.Time{}}},
	}
}

func encodeIndex(list []indexEntry) []byte {
	b := appendIndexHeader(nil, len(list))
	for _, r := range list {
		var ok bool
		if b, ok = appendIndexEntry(b, r); !ok {
			panic("a sample run has no binary form")
		}
	}
	return b
}

// Every field comes back as it was, exit code 0 and time offsets included.
func TestIndexEncodingRoundTrips(t *testing.T) {
	want := indexSample()
	got, err := decodeIndex(encodeIndex(want))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("decoded %d runs, want %d", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if !g.run.StartedAt.Equal(w.run.StartedAt) || g.run.StartedAt.Format(time.RFC3339Nano) != w.run.StartedAt.Format(time.RFC3339Nano) {
			t.Errorf("run %d started %v, want %v", i, g.run.StartedAt, w.run.StartedAt)
		}
		g.run.StartedAt, w.run.StartedAt = time.Time{}, time.Time{}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("run %d = %+v, want %+v", i, g, w)
		}
	}
}

// A truncated index, one with bytes after its runs and one of another
// version do not decode: the index is rebuilt from the records.
func TestADamagedIndexDoesNotDecode(t *testing.T) {
	data := encodeIndex(indexSample())
	for n := range len(data) {
		if _, err := decodeIndex(data[:n]); err == nil {
			t.Fatalf("the index cut to %d of %d bytes decoded", n, len(data))
		}
	}
	if _, err := decodeIndex(append(data, 0)); err == nil {
		t.Error("an index with a byte after its runs decoded")
	}
	other := append([]byte("stratos runs index 3\n"), data[len(indexMagic):]...)
	if _, err := decodeIndex(other); err == nil {
		t.Error("an index of another version decoded")
	}
}

func BenchmarkIndexDecode(b *testing.B) {
	var list []indexEntry
	for range 2500 {
		list = append(list, indexSample()[:2]...)
		list = append(list, indexSample()[:2]...)
	}
	data := encodeIndex(list)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := decodeIndex(data); err != nil {
			b.Fatal(err)
		}
	}
}

// A run with a time that has no binary form is left out, and what was
// appended before it stays whole.
func TestARunWithoutABinaryTimeIsLeftOut(t *testing.T) {
	head := appendIndexHeader(nil, 1)
	odd := indexSample()[0]
	odd.run.StartedAt = odd.run.StartedAt.In(time.FixedZone("minus one minute", -60)) // MarshalBinary refuses it
	b, ok := appendIndexEntry(head, odd)
	if ok || string(b) != string(head) {
		t.Fatalf("appendIndexEntry = %d bytes, %v; want the header alone and false", len(b), ok)
	}
	if b, ok = appendIndexEntry(head, indexSample()[0]); !ok || len(b) == len(head) {
		t.Fatalf("a run with whole-minute offsets was not appended")
	}
}
