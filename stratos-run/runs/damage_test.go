package runs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stratoscli/stratos/stratos-run/records"
)

// A listing through the index checks each indexed run's status.json: one
// edited since (even to the same size), damaged or removed is read again,
// and a damaged one is reported and not listed, as it is without the index.
func TestAListingThroughTheIndexSeesRecordsChangedSince(t *testing.T) {
	s := fourRuns(t)
	finished(t, s, "20261202T120000Z-eeee0005", records.StatusSucceeded, 0, t0.Add(-5*time.Hour))
	settle(t, s)
	if _, problems, err := s.List(Filter{}); err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	if n := len(s.readIndex()); n != 4 {
		t.Fatalf("the index holds %d runs, want the 4 finished", n)
	}
	status := func(id string) string { return filepath.Join(s.Dir, id, records.StatusFile) }
	write := func(id string, data []byte) { // in place, as an editor or a stray redirect does
		t.Helper()
		f, err := os.OpenFile(status(id), os.O_WRONLY|os.O_TRUNC, 0)
		if err == nil {
			_, err = f.Write(data)
			f.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	write("20261202T140000Z-aaaa0001", []byte(`{"executionId": "20261202T140000Z-aaaa0001", "stat`))
	write("20261202T150000Z-bbbb0002", nil)
	if err := os.Remove(status("20261202T160000Z-cccc0003")); err != nil {
		t.Fatal(err)
	}
	same, err := os.ReadFile(status("20261202T120000Z-eeee0005"))
	if err != nil {
		t.Fatal(err)
	}
	write("20261202T120000Z-eeee0005", bytes.Replace(same, []byte(records.StatusSucceeded), []byte(records.StatusCancelled), 1))

	for _, through := range []string{"the index", "the records"} {
		if through == "the records" {
			if err := os.Remove(filepath.Join(s.Dir, IndexFile)); err != nil {
				t.Fatal(err)
			}
		}
		list, problems, err := s.List(Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(list); !reflect.DeepEqual(got, []string{"20261202T170000Z-dddd0004", "20261202T120000Z-eeee0005"}) {
			t.Errorf("through %s: listed %v, want the running run and the edited one", through, got)
		}
		if len(list) == 2 && list[1].Status != records.StatusCancelled {
			t.Errorf("through %s: the edited run is %s, want %s", through, list[1].Status, records.StatusCancelled)
		}
		var text []string
		for _, p := range problems {
			text = append(text, p.Error())
		}
		all := strings.Join(text, "\n")
		for _, want := range []string{"20261202T140000Z-aaaa0001", "20261202T150000Z-bbbb0002", "20261202T160000Z-cccc0003: status.json is missing"} {
			if !strings.Contains(all, want) {
				t.Errorf("through %s: no problem names %q:\n%s", through, want, all)
			}
		}
		if len(problems) != 3 {
			t.Errorf("through %s: %d problems, want 3:\n%s", through, len(problems), all)
		}
	}
}

// A record without a status.json is one being created while its process
// runs (nothing to report), and damaged once its process is gone.
func TestAMissingStatusIsDamageOnlyOnceTheProcessIsGone(t *testing.T) {
	s := newStore(t)
	begin(t, s, "20261202T170000Z-a11e0001", "w", os.Getpid(), t0)
	begin(t, s, "20261202T170001Z-dead0001", "w", deadPID(t), t0)
	for _, id := range []string{"20261202T170000Z-a11e0001", "20261202T170001Z-dead0001"} {
		if err := os.Remove(filepath.Join(s.Dir, id, records.StatusFile)); err != nil {
			t.Fatal(err)
		}
	}
	list, problems, err := s.List(Filter{})
	if err != nil || len(list) != 0 {
		t.Fatalf("List = %v, %v; want no runs", ids(list), err)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), "20261202T170001Z-dead0001: status.json is missing") {
		t.Errorf("problems = %v, want only the dead run's missing status", problems)
	}
}

// Status files that are not statuses are errors, read within their size
// limit, never a hang on a FIFO nor a read without end of a device.
func TestStatusReadersRefuseWhatIsNotAStatus(t *testing.T) {
	s := newStore(t)
	cases := map[string]func(path string) error{
		"garbage": func(p string) error { return os.WriteFile(p, []byte("\x00\xff{]"), 0o644) },
		"empty":   func(p string) error { return os.WriteFile(p, nil, 0o644) },
		"array":   func(p string) error { return os.WriteFile(p, []byte(`[1,2]`), 0o644) },
		"unknown status": func(p string) error {
			return os.WriteFile(p, []byte(`{"executionId":"x","workflow":"w","status":"exploded","startedAt":"2026-12-02T17:00:00Z"}`), 0o644)
		},
		"huge": func(p string) error {
			return os.WriteFile(p, append([]byte(`{"warnings":["`), bytes.Repeat([]byte("x"), records.MaxStatusSize)...), 0o644)
		},
		"fifo":      func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"device":    func(p string) error { return os.Symlink("/dev/zero", p) },
		"directory": func(p string) error { return os.Mkdir(p, 0o755) },
	}
	i := 0
	for name, damage := range cases {
		id := fmt.Sprintf("20261202T1700%02dZ-0000da%02d", i, i)
		i++
		begin(t, s, id, "w", deadPID(t), t0)
		path := filepath.Join(s.Dir, id, records.StatusFile)
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := damage(path); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := s.Load(id); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: Load read it as a status", name)
			}
		case <-time.After(10 * time.Second): // a hang, not a slow read: no timing is measured
			t.Fatalf("%s: Load hangs", name)
		}
	}
	_, problems, err := s.List(Filter{})
	if err != nil || len(problems) != len(cases) {
		t.Errorf("List: %v, %d problems, want %d: %v", err, len(problems), len(cases), problems)
	}
}

// An index that promises more runs than its bytes can hold is refused
// before anything is allocated for them.
func TestAnIndexPromisingTooManyRunsAllocatesNothingForThem(t *testing.T) {
	const n = 8 << 20
	data := appendIndexHeader(nil, n)
	data = append(data, make([]byte, n)...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := decodeIndex(data)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("an index of zeros decoded")
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("decoding allocated %d MiB for %d promised runs", grew>>20, n)
	}
}
