package adapter

import (
	"encoding/json"
	"time"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// Event is one observation an adapter reports: its kind's details, one of
// the event vocabulary's types (shared/contract/eventapi), so a
// workflow's event record reads the same whatever harness ran it. The
// host adds the agent, the invocation, a sequence and, when Time is
// zero, a timestamp.
type Event struct {
	Time    time.Time
	IDs     eventapi.IDs
	Details eventapi.Details
	// Reconstructed marks an event written on the harness's behalf after
	// the fact rather than reported by it.
	Reconstructed bool
}

// NewEvent is an event of d's kind, observed now.
func NewEvent(ids eventapi.IDs, d eventapi.Details) Event {
	return Event{Time: time.Now(), IDs: ids, Details: d}
}

// Type is the event's type, its details' kind.
func (e Event) Type() string {
	if e.Details == nil {
		return ""
	}
	return e.Details.EventType()
}

// JSON is raw as an event's details carry it: raw when it is JSON, else
// raw as a JSON string (a harness's malformed input is kept for people to
// read, never dropped); nil when raw is empty.
func JSON(raw []byte) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	if json.Valid(raw) {
		return json.RawMessage(raw)
	}
	return JSONOf(string(raw))
}

// JSONOf is v encoded for an event's details; nil when v does not encode.
func JSONOf(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}
