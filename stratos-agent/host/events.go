package host

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// EventsFileName is the run record file events are appended to.
const EventsFileName = "events.jsonl"

// recorder appends events to the run record's events.jsonl, one JSON object
// per line (an eventapi.Event), and optionally forwards them to the SDK.
// Observation failures are logged, never returned: events do not control
// agents.
type recorder struct {
	mu     sync.Mutex
	f      *os.File
	seq    int64
	notify func(eventapi.Event) // nil: record only
	warn   func(error)
}

func openRecorder(path string, notify func(eventapi.Event), warn func(error)) (*recorder, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &recorder{f: f, notify: notify, warn: warn}, nil
}

// record stamps e with the vocabulary's version, a sequence number (and a
// timestamp when missing) and appends it. Sequence numbers give the
// observed order within the host.
func (r *recorder) record(e eventapi.Event) {
	e.V = eventapi.Version
	if e.Timestamp == "" {
		e.Timestamp = stamp(time.Now())
	}
	r.mu.Lock()
	r.seq++
	e.Sequence = r.seq
	b, err := json.Marshal(e)
	if err == nil {
		_, err = r.f.Write(append(b, '\n'))
	}
	r.mu.Unlock()
	if err != nil {
		r.warn(fmt.Errorf("record event %s: %w", e.Type, err))
	}
	if r.notify != nil {
		r.notify(e)
	}
}

func (r *recorder) close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.f.Close()
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
