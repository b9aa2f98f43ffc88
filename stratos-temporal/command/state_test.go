package command

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The mirror appends what each report adds to what it appended, whole
// lines, and starts over for the code's next attempt.
func TestEventMirrorAppendsWhatEachReportAdds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	m := openEvents(path, io.Discard)
	defer m.close()
	m.add(4, []byte("{a}\n"))
	m.add(8, []byte("{a}\n{b}\n")) // {b} is new
	m.add(8, []byte("{a}\n{b}\n")) // nothing new
	m.add(20, []byte("{e}\n"))     // {c} and {d} scrolled past
	m.newAttempt()
	m.add(4, []byte("{x}\n"))
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{a}\n{b}\n{e}\n{x}\n"; string(got) != want {
		t.Errorf("events = %q, want %q", got, want)
	}
}
