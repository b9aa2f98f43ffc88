package records

import (
	"os"
	"time"
)

// maxRecordEntries bounds how many entries of a record directory InferEnd
// looks at: a record has fewer than ten files.
const maxRecordEntries = 256

// InferEnd returns when the run in dir most probably ended, for a run found
// crashed at at, and the name of the file that says so; from is "" when no
// file does (the end is then at). A crashed run wrote no end, but every
// file of its record was last written while it ran: events.jsonl by each
// event, console.log by a detached run's output, status.json when it
// began. So the latest modification among them is the last sign of the
// run's life, which is much closer to its end than the moment a later
// command noticed its process gone. It is kept between startedAt and at.
func InferEnd(dir string, startedAt, at time.Time) (end time.Time, from string) {
	d, err := os.Open(dir)
	if err != nil {
		return at, ""
	}
	defer d.Close()
	entries, _ := d.ReadDir(maxRecordEntries) // what was read before an error still counts
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if t := info.ModTime(); from == "" || t.After(end) {
			end, from = t, e.Name()
		}
	}
	if from == "" {
		return at, ""
	}
	if end.After(at) {
		end = at
	}
	if end.Before(startedAt) {
		end = startedAt
	}
	return end.UTC(), from
}
