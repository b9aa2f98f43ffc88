package command

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
)

// writeState writes how the run ended to path (nothing when path is ""),
// for the run record on the submitting machine.
func writeState(path, id string, s temporalapi.RunState) error {
	if path == "" {
		return nil
	}
	s.WorkflowID = id
	data, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("encode the run's end for %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, data, atomicfile.Public); err != nil {
		return fmt.Errorf("write the run's end to %s: %w", path, err)
	}
	return nil
}

// failedState is the end of a run that failed with err before its code
// gave a result.
func failedState(err error) temporalapi.RunState {
	ce := clierr.As(err)
	code := ce.Exit
	data, _ := json.Marshal(clierr.EnvelopeBody{Code: ce.Code, Message: ce.Message})
	now := time.Now().UTC()
	return temporalapi.RunState{Status: temporalapi.StatusOfExit(code), ExitCode: &code, EndedAt: &now, Error: data}
}

// eventMirror appends the events the code's heartbeats report to a file
// (the submitting machine's run record), so that runs logs --follow shows
// them there while the run runs. A heartbeat carries the end of the
// events only: lines that scrolled past between two of them are missing
// until the run ends, when its record gets every event.
type eventMirror struct {
	f       *os.File
	written int64 // bytes of this attempt's events.jsonl appended
	warn    io.Writer
}

// openEvents opens path for appending; nil (which drops everything) when
// path is "" or cannot be opened, said on warn.
func openEvents(path string, warn io.Writer) *eventMirror {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintf(warn, "stratos: the run's events will not be shown as they come: %v\n", err)
		return nil
	}
	return &eventMirror{f: f, warn: warn}
}

// newAttempt starts over with the events of the code's next attempt
// (a record of its own on its worker), after those of the one before.
func (m *eventMirror) newAttempt() {
	if m != nil {
		m.written = 0
	}
}

// add appends what tail, the end of total bytes of events, adds.
func (m *eventMirror) add(total int64, tail []byte) {
	if m == nil || m.f == nil || total <= m.written {
		return
	}
	start := total - int64(len(tail))
	from := max(m.written-start, 0)
	if _, err := m.f.Write(tail[from:]); err != nil {
		fmt.Fprintf(m.warn, "stratos: append the run's events: %v\n", err)
		m.f, m.written = nil, total
		return
	}
	m.written = total
}

func (m *eventMirror) close() {
	if m != nil && m.f != nil {
		_ = m.f.Close()
	}
}
