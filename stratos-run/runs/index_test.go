package runs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// fromRecords lists s as it would be listed without an index.
func fromRecords(t *testing.T, s *Store) []Run {
	t.Helper()
	fresh := &Store{Dir: t.TempDir(), Now: s.Now}
	if err := os.CopyFS(fresh.Dir, os.DirFS(s.Dir)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(fresh.Dir, IndexFile))
	list, problems, err := fresh.List(Filter{})
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	for i := range list {
		list[i].Dir = filepath.Join(s.Dir, list[i].ExecutionID)
	}
	return list
}

func TestListThroughTheIndexFollowsTheRecords(t *testing.T) {
	s := fourRuns(t)
	first, problems, err := s.List(Filter{})
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, IndexFile)); err != nil {
		t.Fatalf("listing finished runs wrote no index: %v", err)
	}
	if !reflect.DeepEqual(first, fromRecords(t, s)) {
		t.Fatalf("first listing differs from the records")
	}

	// The running run finishes, a new one finishes, an old one is pruned by
	// hand: the next listing shows all three changes.
	live := &recordsRun{t: t, s: s}
	live.finish("20261202T170000Z-dddd0004", records.StatusSucceeded)
	finished(t, s, "20261202T180000Z-eeee0005", records.StatusFailed, 1, t0.Add(time.Hour))
	if err := os.RemoveAll(filepath.Join(s.Dir, "20261202T140000Z-aaaa0001")); err != nil {
		t.Fatal(err)
	}
	second, _, _ := s.List(Filter{})
	want := []string{"20261202T180000Z-eeee0005", "20261202T170000Z-dddd0004", "20261202T160000Z-cccc0003", "20261202T150000Z-bbbb0002"}
	if !reflect.DeepEqual(ids(second), want) {
		t.Fatalf("after the changes: %v, want %v", ids(second), want)
	}
	if second[1].Status != records.StatusSucceeded {
		t.Errorf("the run that finished after it was indexed shows %s", second[1].Status)
	}
	if !reflect.DeepEqual(second, fromRecords(t, s)) {
		t.Errorf("listing through the index differs from the records")
	}
	// The index has been rewritten without the pruned run.
	if _, ok := s.readIndex()["20261202T140000Z-aaaa0001"]; ok {
		t.Errorf("the index still holds a pruned run")
	}
	// Every run now comes from the index, the succeeded one with its exit
	// code 0 (which gob would drop from a pointer).
	third, _, _ := s.List(Filter{})
	if !reflect.DeepEqual(third, fromRecords(t, s)) {
		t.Errorf("listing entirely from the index differs from the records: %+v", third)
	}
	if c := third[1].ExitCode; c == nil || *c != 0 {
		t.Errorf("the succeeded run's exit code from the index: %v, want 0", c)
	}
}

func TestADamagedIndexIsRebuilt(t *testing.T) {
	s := fourRuns(t)
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir, IndexFile), []byte("not gob"), 0o644); err != nil {
		t.Fatal(err)
	}
	list, problems, err := s.List(Filter{})
	if err != nil || len(problems) > 0 || len(list) != 4 {
		t.Fatalf("%d runs, %v, %v", len(list), err, problems)
	}
	if len(s.readIndex()) != 3 {
		t.Errorf("the rebuilt index holds %d runs, want the 3 finished", len(s.readIndex()))
	}
}

// settle waits until the file system's clock has passed the last change of
// every status.json in s, so that a listing's stat data vouch for what it
// reads (see listing.vouchRecent) however fast the test wrote them.
func settle(t *testing.T, s *Store) {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(s.Dir, "*", records.StatusFile))
	var last int64
	for _, p := range paths {
		st, err := filestat.Path(p)
		if err != nil {
			t.Fatal(err)
		}
		last = max(last, st.Mtime, st.Ctime)
	}
	for {
		clock, err := filestat.ReadClock(s.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if clock.Now > last {
			return
		}
		time.Sleep(time.Millisecond) // the next timestamp tick
	}
}

// recordsRun finishes a record that another test helper began.
type recordsRun struct {
	t *testing.T
	s *Store
}

func (r *recordsRun) finish(id, status string) {
	r.t.Helper()
	dir := filepath.Join(r.s.Dir, id)
	st, err := records.ReadStatus(dir)
	if err != nil {
		r.t.Fatal(err)
	}
	end, code := st.StartedAt.Add(time.Second), 0
	st.Status, st.EndedAt, st.ExitCode = status, &end, &code
	if err := os.WriteFile(filepath.Join(dir, records.StatusFile), mustJSON(r.t, st), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
