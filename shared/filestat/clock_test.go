package filestat_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/filestat"
)

// The clock says when stat data can vouch for content: only for files
// that last changed before it was read, in the file system's own time.
func TestClockVouchesForFilesChangedBeforeIt(t *testing.T) {
	dir := t.TempDir()
	before := filepath.Join(dir, "before")
	if err := os.WriteFile(before, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(before, old, old); err != nil {
		t.Fatal(err)
	}
	clock, err := filestat.ReadClock(dir)
	if err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("reading the clock left files behind: %v", entries)
	}
	after := filepath.Join(dir, "after")
	if err := os.WriteFile(after, []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	stBefore, err := filestat.Path(before)
	if err != nil {
		t.Fatal(err)
	}
	stAfter, err := filestat.Path(after)
	if err != nil {
		t.Fatal(err)
	}
	// Chtimes set the change time to now: before changed in the clock's
	// tick or earlier, so only a clock read later vouches for it.
	if clock.Vouches(stAfter) {
		t.Errorf("the clock vouches for a file written after it was read: %+v vs %+v", stAfter, clock)
	}
	if clock.Vouches(stBefore) && stBefore.Ctime >= clock.Now {
		t.Errorf("vouched for a file whose change time is not before the clock")
	}
	later, err := filestat.ReadClock(dir)
	if err != nil {
		t.Fatal(err)
	}
	for range 300 {
		if later.Now > stAfter.Ctime && later.Now > stAfter.Mtime {
			break
		}
		time.Sleep(10 * time.Millisecond) // the next timestamp tick
		if later, err = filestat.ReadClock(dir); err != nil {
			t.Fatal(err)
		}
	}
	if !later.Vouches(stAfter) || !later.Vouches(stBefore) {
		t.Errorf("a clock read a tick after both files changed does not vouch for them")
	}
	// On another device the clock knows nothing of the ticks: the
	// two-second window applies.
	other := stAfter
	other.Dev++
	if later.Vouches(other) {
		t.Errorf("vouched for a just-changed file of another device")
	}
}
