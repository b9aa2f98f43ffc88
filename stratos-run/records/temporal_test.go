package records

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// completeEvents appends to the events reported while a Temporal run ran
// those it lacks, keeps an earlier attempt's, and replaces what a gap
// left out.
func TestCompleteEvents(t *testing.T) {
	ev := func(lines ...string) []json.RawMessage {
		var out []json.RawMessage
		for _, l := range lines {
			out = append(out, json.RawMessage(l))
		}
		return out
	}
	for _, c := range []struct {
		name, have string
		events     []json.RawMessage
		want       string
		appended   bool
	}{
		{"an empty file", "", ev(`{"a":1}`), "{\"a\":1}\n", true},
		{"nothing reported", "", ev(`{"a":1}`, `{"a":2}`), "{\"a\":1}\n{\"a\":2}\n", true},
		{"a prefix reported", "{\"a\":1}\n", ev(`{"a":1}`, `{"a":2}`), "{\"a\":1}\n{\"a\":2}\n", true},
		{"an earlier attempt first", "{\"x\":0}\n{\"a\":1}\n", ev(`{"a":1}`, `{"a":2}`), "{\"x\":0}\n{\"a\":1}\n{\"a\":2}\n", true},
		{"a gap", "{\"a\":1}\n{\"a\":3}\n", ev(`{"a":1}`, `{"a":2}`, `{"a":3}`), "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", false},
		{"indented", "", ev("{\n  \"a\": 1\n}"), "{\"a\":1}\n", true},
		{"the start missed", "{\"a\":3}\n", ev(`{"a":1}`, `{"a":2}`, `{"a":3}`), "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), EventsFile)
			// Every case has a file but the one without anything reported
			// (the submitter creates it before the first report).
			if c.name != "nothing reported" {
				if err := os.WriteFile(path, []byte(c.have), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before, _ := os.Stat(path)
			if err := completeEvents(path, c.events); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("events.jsonl = %q, want %q", got, c.want)
			}
			after, _ := os.Stat(path)
			if before != nil && os.SameFile(before, after) != c.appended {
				t.Errorf("same file after: %v, want %v (appended, not replaced)", !c.appended, c.appended)
			}
		})
	}
}
