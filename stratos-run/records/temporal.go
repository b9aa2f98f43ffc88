package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/stratoscli/stratos/shared/atomicfile"
)

// EngineTemporal is Run.Engine of a run on the Temporal engine; a local
// run's is empty.
const EngineTemporal = "temporal"

// TemporalRun is where a run on the Temporal engine is: its workflow,
// and the server and namespace that hold it (as the submitter's
// TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE named them).
type TemporalRun struct {
	WorkflowID string `json:"workflowId"`
	Address    string `json:"address"`
	Namespace  string `json:"namespace"`
	TaskQueue  string `json:"taskQueue"`
}

// FinishElsewhere writes how a run that ran elsewhere ended (a Temporal
// run, as its workflow reported it) into the record in dir, as Finish
// does, when its status still says running. events are the run's events
// as they were recorded where it ran; events.jsonl gets those it lacks
// first (see completeEvents). It returns the status it left.
func FinishElsewhere(dir string, f Final, events []json.RawMessage) (Status, error) {
	st, err := ReadStatus(dir)
	if err != nil || st.Status != StatusRunning {
		return st, err
	}
	if err := completeEvents(filepath.Join(dir, EventsFile), events); err != nil {
		return st, err
	}
	r := &Run{dir: dir, status: st}
	if f.EndedAt.IsZero() {
		f.EndedAt = time.Now()
	}
	if err := r.Finish(f); err != nil {
		return st, err
	}
	return r.status, nil
}

// maxMirroredEvents bounds what completeEvents reads of events.jsonl.
const maxMirroredEvents = 64 << 20

// completeEvents makes the events file at path, which holds the events
// reported while the run ran (the end of each report: some may be
// missing), end with all of events. When the file ends with the start of
// events (nothing was missed since their first), the rest is appended, so
// that runs logs --follow, which reads the file as it grows, prints it.
// Otherwise events replace the file from their first line on (or the
// whole file, when it does not hold their first line).
func completeEvents(path string, events []json.RawMessage) error {
	if len(events) == 0 {
		return nil
	}
	events = compactLines(events)
	data, err := readAtMost(path, maxMirroredEvents)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return recordError(path, err)
	}
	have := bytes.SplitAfter(data, []byte("\n"))
	if n := len(have); n > 0 && len(have[n-1]) == 0 {
		have = have[:n-1]
	}
	first := slices.IndexFunc(have, func(l []byte) bool { return bytes.Equal(bytes.TrimSuffix(l, []byte("\n")), events[0]) })
	if len(have) == 0 {
		return appendLines(path, events)
	}
	if first >= 0 && len(have)-first <= len(events) && linesEqual(have[first:], events) {
		return appendLines(path, events[len(have)-first:])
	}
	var b bytes.Buffer
	if first >= 0 {
		b.Write(bytes.Join(have[:first], nil))
	}
	for _, e := range events {
		b.Write(e)
		b.WriteByte('\n')
	}
	if err := atomicfile.WriteFile(path, b.Bytes(), atomicfile.Public); err != nil {
		return recordError(path, err)
	}
	return nil
}

// compactLines is each event on one line, as events.jsonl holds it (an
// event that passed through an indented document is not).
func compactLines(events []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, 0, len(events))
	for _, e := range events {
		var b bytes.Buffer
		if json.Compact(&b, e) != nil {
			continue
		}
		out = append(out, b.Bytes())
	}
	return out
}

// linesEqual reports whether lines (each with its newline, the last one
// complete) are the first of events.
func linesEqual(lines [][]byte, events []json.RawMessage) bool {
	for i, l := range lines {
		if !bytes.HasSuffix(l, []byte("\n")) || !bytes.Equal(l[:len(l)-1], events[i]) {
			return false
		}
	}
	return true
}

func appendLines(path string, events []json.RawMessage) error {
	if len(events) == 0 {
		return nil
	}
	var b bytes.Buffer
	for _, e := range events {
		b.Write(e)
		b.WriteByte('\n')
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return recordError(path, err)
	}
	_, err = f.Write(b.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return recordError(path, err)
	}
	return nil
}

// readAtMost reads the file at path, which must not be larger than max.
func readAtMost(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = fmt.Errorf("larger than %d bytes", max)
	}
	return data, err
}
