package runs

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/stratos-run/records"
)

// liveEntries lists the execution IDs registered as live in s.
func liveEntries(t *testing.T, s *Store) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(s.Dir, records.LiveDir))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			ids = append(ids, e.Name())
		}
	}
	return ids
}

// beginUnregistered writes a running record the way versions without live
// entries did.
func beginUnregistered(t *testing.T, s *Store, id string, pid int) {
	t.Helper()
	r := begin(t, s, id, "w", pid, t0)
	records.Unregister(r.Dir())
}

func status(t *testing.T, s *Store, id string) string {
	t.Helper()
	st, err := records.ReadStatus(filepath.Join(s.Dir, id))
	if err != nil {
		t.Fatal(err)
	}
	return st.Status
}

func reconcileLive(t *testing.T, s *Store) []string {
	t.Helper()
	crashed, problems, err := s.ReconcileLive()
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	return crashed
}

func TestBeginRegistersTheRunAndFinishUnregistersIt(t *testing.T) {
	s := newStore(t)
	r := begin(t, s, "20261202T170000Z-aaaa0001", "w", os.Getpid(), t0)
	if got := liveEntries(t, s); !reflect.DeepEqual(got, []string{"20261202T170000Z-aaaa0001"}) {
		t.Fatalf("live entries = %v, want the run", got)
	}
	inv, err := records.ReadLiveEntry(s.Dir, "20261202T170000Z-aaaa0001")
	if err != nil || inv.PID != os.Getpid() || inv.ProcessStart == 0 {
		t.Errorf("live entry = %+v, %v; want the run's pid and start time", inv, err)
	}
	if err := r.Finish(records.Final{Status: records.StatusSucceeded, EndedAt: t0.Add(time.Second), Output: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if got := liveEntries(t, s); len(got) != 0 {
		t.Errorf("live entries after Finish = %v, want none", got)
	}
}

// TestBeginReplacesALeftoverEntry: an entry of the same name that is not
// the run's (the link cannot be made) is replaced by a copy of the run's
// invocation.
func TestBeginReplacesALeftoverEntry(t *testing.T) {
	s := newStore(t)
	id := "20261202T170000Z-aaaa0002"
	if err := os.MkdirAll(filepath.Join(s.Dir, records.LiveDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir, records.LiveDir, id), []byte("left over"), 0o644); err != nil {
		t.Fatal(err)
	}
	begin(t, s, id, "w", os.Getpid(), t0)
	if inv, err := records.ReadLiveEntry(s.Dir, id); err != nil || inv.ExecutionID != id || inv.PID != os.Getpid() {
		t.Errorf("live entry = %+v, %v; want the run's invocation", inv, err)
	}
}

// TestReconcileLiveScansEveryRecordOnce: the first run start reconciles
// the records that have no live entry (begun by older versions); later
// ones do not read them, and listings still reconcile them.
func TestReconcileLiveScansEveryRecordOnce(t *testing.T) {
	s := newStore(t)
	const before, after = "20261202T170000Z-01d00001", "20261202T170001Z-01d00002"
	beginUnregistered(t, s, before, deadPID(t))
	if got := reconcileLive(t, s); !reflect.DeepEqual(got, []string{before}) {
		t.Errorf("first ReconcileLive = %v, want the unregistered dead run", got)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, records.LiveDir, ScannedMarker)); err != nil {
		t.Errorf("no marker after the first scan: %v", err)
	}
	beginUnregistered(t, s, after, deadPID(t))
	if got := reconcileLive(t, s); len(got) != 0 {
		t.Errorf("second ReconcileLive = %v, want nothing (the full scan is done)", got)
	}
	if got := status(t, s, after); got != records.StatusRunning {
		t.Errorf("unregistered run after the second ReconcileLive: %s, want still running", got)
	}
	if r, err := s.Load(after); err != nil || r.Status != records.StatusCrashed {
		t.Errorf("Load = %+v, %v; want crashed", r, err)
	}
}

func TestReconcileLiveMarksDeadRunsCrashedAndKeepsLiveOnes(t *testing.T) {
	s := newStore(t)
	reconcileLive(t, s) // the one-time scan, of nothing
	const dead, live, ended = "20261202T170000Z-dead0001", "20261202T170001Z-a1e00001", "20261202T170002Z-d0e00001"
	begin(t, s, dead, "w", deadPID(t), t0)
	begin(t, s, live, "w", os.Getpid(), t0)
	r := begin(t, s, ended, "w", deadPID(t), t0)
	if err := r.Finish(records.Final{Status: records.StatusFailed, ExitCode: 1, EndedAt: t0, Error: map[string]any{"code": "x"}}); err != nil {
		t.Fatal(err)
	}
	if got := reconcileLive(t, s); !reflect.DeepEqual(got, []string{dead}) {
		t.Errorf("ReconcileLive = %v, want only the dead run", got)
	}
	for id, want := range map[string]string{dead: records.StatusCrashed, live: records.StatusRunning, ended: records.StatusFailed} {
		if got := status(t, s, id); got != want {
			t.Errorf("%s: %s, want %s", id, got, want)
		}
	}
	if got := liveEntries(t, s); !reflect.DeepEqual(got, []string{live}) {
		t.Errorf("live entries = %v, want only the live run's", got)
	}
	if got := reconcileLive(t, s); len(got) != 0 {
		t.Errorf("ReconcileLive again = %v, want nothing", got)
	}
}

// TestReconcileLiveDropsEntriesOfEndedRuns: an entry left behind by a run
// whose process is gone but whose status is final, or which died before
// its status was written, goes without touching the record.
func TestReconcileLiveDropsEntriesOfEndedRuns(t *testing.T) {
	s := newStore(t)
	reconcileLive(t, s)
	const ended, unborn = "20261202T170000Z-e0de0001", "20261202T170001Z-0b0e0001"
	r := begin(t, s, ended, "w", deadPID(t), t0)
	if err := r.Finish(records.Final{Status: records.StatusSucceeded, EndedAt: t0, Output: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	// As if the run died between its final status and removing its entry.
	if err := os.Link(filepath.Join(r.Dir(), records.InvocationFile), filepath.Join(s.Dir, records.LiveDir, ended)); err != nil {
		t.Fatal(err)
	}
	u := begin(t, s, unborn, "w", deadPID(t), t0)
	if err := os.Remove(filepath.Join(u.Dir(), records.StatusFile)); err != nil {
		t.Fatal(err)
	}
	if got := reconcileLive(t, s); len(got) != 0 {
		t.Errorf("ReconcileLive = %v, want nothing crashed", got)
	}
	if got := liveEntries(t, s); len(got) != 0 {
		t.Errorf("live entries = %v, want none", got)
	}
	if got := status(t, s, ended); got != records.StatusSucceeded {
		t.Errorf("ended run: %s, want succeeded", got)
	}
	if _, err := os.Stat(filepath.Join(u.Dir(), records.StatusFile)); !os.IsNotExist(err) {
		t.Errorf("a status was written for the run that had none: %v", err)
	}
}

// TestReconcileLiveReadsTheRecordWhenTheEntryIsCutShort: a copied entry
// cut short by a crash is not the end of the run's reconciliation.
func TestReconcileLiveReadsTheRecordWhenTheEntryIsCutShort(t *testing.T) {
	s := newStore(t)
	reconcileLive(t, s)
	const id = "20261202T170000Z-c0c00001"
	begin(t, s, id, "w", deadPID(t), t0)
	entry := filepath.Join(s.Dir, records.LiveDir, id)
	if err := os.Remove(entry); err != nil { // not the record's file: a copy
		t.Fatal(err)
	}
	if err := os.WriteFile(entry, []byte(`{"executionId": "`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := reconcileLive(t, s); !reflect.DeepEqual(got, []string{id}) {
		t.Errorf("ReconcileLive = %v, want the dead run", got)
	}
}

func TestAListingThatFindsARunCrashedDropsItsEntry(t *testing.T) {
	s := newStore(t)
	const id = "20261202T170000Z-1157a001"
	begin(t, s, id, "w", deadPID(t), t0)
	if r, err := s.Load(id); err != nil || r.Status != records.StatusCrashed {
		t.Fatalf("Load = %+v, %v; want crashed", r, err)
	}
	if got := liveEntries(t, s); len(got) != 0 {
		t.Errorf("live entries = %v, want none", got)
	}
}

// A crashed run's duration ends at the last sign of its life in the
// record (the latest modification of its files), not when a later command
// noticed it: the record says that end is inferred, and from what.
func TestACrashedRunEndsWhenItsRecordLastChanged(t *testing.T) {
	s := newStore(t) // notices crashes an hour after t0
	const id = "20261202T170000Z-c4a5e001"
	r := begin(t, s, id, "w", deadPID(t), t0)
	if err := os.WriteFile(filepath.Join(r.Dir(), EventsFile), []byte(`{"type":"a"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, at := range map[string]time.Time{records.InvocationFile: t0, records.StatusFile: t0, EventsFile: t0.Add(5 * time.Second)} {
		if err := os.Chtimes(filepath.Join(r.Dir(), name), at, at); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != records.StatusCrashed || got.DurationMs != 5000 {
		t.Errorf("crashed run: %s, %d ms; want crashed, 5000 ms", got.Status, got.DurationMs)
	}
	rec := got.Reconciled
	if rec == nil || rec.InferredEnd == nil || !rec.InferredEnd.Equal(t0.Add(5*time.Second)) || rec.InferredFrom != EventsFile || !rec.At.Equal(t0.Add(time.Hour)) {
		t.Fatalf("reconciled = %+v, want noticed at t0+1h, inferred end t0+5s from %s", rec, EventsFile)
	}
	if got.EndedAt != nil {
		t.Errorf("endedAt = %v: nobody saw the run end", got.EndedAt)
	}
	// The end is kept in the record: listed again, through the index, the
	// duration is the same.
	for range 2 {
		list, _, err := s.List(Filter{})
		if err != nil || len(list) != 1 || list[0].DurationMs != 5000 || !reflect.DeepEqual(list[0].Reconciled, rec) {
			t.Errorf("listed: %+v, %v", list, err)
		}
	}
}
