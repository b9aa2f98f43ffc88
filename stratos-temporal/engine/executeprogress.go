package engine

import "encoding/json"

// ExecuteProgressBytes bounds the events one heartbeat of an agent
// activity carries: the last of them that fit.
const ExecuteProgressBytes = 128 << 10

// ExecuteProgress is what an agent activity's heartbeats carry while the
// agent works: its execute's events so far, from event number From on.
// The run's proxy appends them to the run's events as they come (so its
// budget counts a turn's usage while the execute goes on, and a follower
// sees the agent work), and only the rest of the reply's events at the
// end. Events is a suffix of the execute's events in their order; an
// attempt that starts over on another worker starts its numbering again.
type ExecuteProgress struct {
	Worker string            `json:"worker"`
	From   int               `json:"from"`
	Events []json.RawMessage `json:"events,omitempty"`
}

// ProgressOf is the progress of an execute whose events so far are
// events: the last of them that fit in ExecuteProgressBytes.
func ProgressOf(worker string, events []json.RawMessage) ExecuteProgress {
	from, size := len(events), 0
	for from > 0 && size+len(events[from-1]) <= ExecuteProgressBytes {
		from--
		size += len(events[from])
	}
	return ExecuteProgress{Worker: worker, From: from, Events: events[from:]}
}
