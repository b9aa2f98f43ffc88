package runs

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// Logs emits only the lines that are events (one JSON object in UTF-8, of
// a type, with details that fit it); the others go to Unreadable with
// their line number, and a line too long to hold is read past.
func TestLogsEmitsEventsAndReportsTheOtherLines(t *testing.T) {
	s := newStore(t)
	r := begin(t, s, "20261202T170000Z-logs0002", "w", deadPID(t), t0)
	lines := []string{
		`{"type":"a"}`,
		`not json`,
		`{"type":"cut short"`,
		`[1,2]`,
		"\xff\xfe{}",
		"",
		`  {"type":"b"}  `,
		`{"type":"` + strings.Repeat("x", MaxEventLine) + `"}`,
		"{\"type\":\"c\"}\r",
		`{"typ":"d"}`,
		`{"v":1,"type":"agent.closed","details":["details","are","an","object"]}`,
		`{"type":"still being written"`, // no newline yet: neither emitted nor reported
	}
	path := filepath.Join(r.Dir(), EventsFile)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	var bad []UnreadableLine
	opts := LogOptions{Unreadable: func(u UnreadableLine) error { bad = append(bad, u); return nil }}
	err := s.Logs(context.Background(), "20261202T170000Z-logs0002", opts, func(line []byte) error {
		got = append(got, string(line))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{`{"type":"a"}`, `  {"type":"b"}  `, `{"type":"c"}`}; !reflect.DeepEqual(got, want) {
		t.Errorf("emitted %q, want %q", got, want)
	}
	var numbers []int
	for _, u := range bad {
		numbers = append(numbers, u.Line)
		if u.File != path || u.Reason == "" {
			t.Errorf("unreadable line %+v: want the file %s and a reason", u, path)
		}
	}
	if want := []int{2, 3, 4, 5, 8, 10, 11}; !reflect.DeepEqual(numbers, want) {
		t.Errorf("reported lines %v, want %v", numbers, want)
	}
	if len(bad) == 7 && (!strings.Contains(bad[4].Reason, "longer than") || !strings.Contains(bad[5].Reason, "no type") || !strings.Contains(bad[6].Reason, "details")) {
		t.Errorf("the reasons of the long line, the line without a type and the one whose details do not fit: %+v", bad[4:])
	}

	// Without Unreadable, the other lines are skipped all the same.
	got = nil
	if err := s.Logs(context.Background(), "20261202T170000Z-logs0002", LogOptions{}, func(line []byte) error {
		got = append(got, string(line))
		return nil
	}); err != nil || len(got) != 3 {
		t.Errorf("without Unreadable: %q, %v; want the 3 events", got, err)
	}
}

// A line longer than the limit is read past without being held: the
// reader's buffer stays within the limit, and the lines around it, even
// one written later, come whole.
func TestALongLineIsReadPastNotHeld(t *testing.T) {
	const limit = 100
	long := bytes.Repeat([]byte("y"), 1<<20)
	pr, pw := io.Pipe()
	lr := newLineReader(pr, limit)
	go func() {
		pw.Write([]byte("short\n"))
		for range 4 {
			pw.Write(long)
		}
		pw.Write([]byte("\nafter\nwaiting"))
		pw.Close()
	}()
	var got []eventLine
	for {
		l, err := lr.next()
		if cap(lr.line) > 2*limit+64<<10 {
			t.Fatalf("the reader holds %d bytes of a line", cap(lr.line))
		}
		if err != nil {
			break
		}
		l.text = bytes.Clone(l.text)
		got = append(got, l)
	}
	want := []eventLine{
		{n: 1, text: []byte("short"), size: 5},
		{n: 2, text: nil, size: 4 << 20, tooLong: true},
		{n: 3, text: []byte("after"), size: 5},
	}
	if len(got) != len(want) {
		t.Fatalf("lines %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].n != want[i].n || !bytes.Equal(got[i].text, want[i].text) || got[i].size != want[i].size || got[i].tooLong != want[i].tooLong {
			t.Errorf("line %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestEachEventSkipsWhatCannotBeAnEvent: the readers of whole records
// (stratos test's counts, the trace export) see every event line, and no
// line that is too long (read past: the lines after it still come), blank,
// or torn by a kill.
func TestEachEventSkipsWhatCannotBeAnEvent(t *testing.T) {
	path := filepath.Join(t.TempDir(), EventsFile)
	long := `{"type":"x","text":"` + strings.Repeat("y", MaxEventLine) + `"}`
	data := `{"type":"a"}` + "\n\n" + long + "\n" + `{"type":"b"}` + "\n" + `{"type":"torn`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := EachEvent(path, func(e eventapi.Event) { got = append(got, e.Type) }); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b"}; !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
	if err := EachEvent(filepath.Join(t.TempDir(), "none"), func(eventapi.Event) { t.Error("a line of no file") }); err != nil {
		t.Errorf("a missing file: %v", err)
	}
}
