package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// mirrorEvery is how often the proxy reads a remote execute's progress:
// its worker sends a heartbeat at most every two seconds.
const mirrorEvery = 2 * time.Second

// mirror appends a remote execute's events to the run's events while its
// agent works, from its activity's heartbeats (engine.ExecuteProgress):
// the run's budget then counts a turn's usage as the turn ends, not when
// the execute does, and a follower of the run sees the agent work. Only
// the events it did not append are appended from the reply (rest).
type mirror struct {
	cancel context.CancelFunc
	done   chan struct{}

	// Written by the loop until done is closed.
	attempt  int32
	appended int             // events of attempt appended
	last     json.RawMessage // the last of them
}

// startMirror mirrors execute id's events into t until stop; nil (which
// mirrors nothing) without a converter to read heartbeats with.
func startMirror(c client.Client, dc converter.DataConverter, id string, t *tail) *mirror {
	if dc == nil || t == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &mirror{cancel: cancel, done: make(chan struct{})}
	go m.loop(ctx, c, dc, id, t)
	return m
}

func (m *mirror) loop(ctx context.Context, c client.Client, dc converter.DataConverter, id string, t *tail) {
	defer close(m.done)
	tick := time.NewTicker(mirrorEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if p, attempt, ok := executeProgress(ctx, c, dc, id); ok {
			t.appendEvents(m.take(p, attempt))
		}
	}
}

// take is what p adds to the events appended so far. The events of an
// attempt that starts over are numbered anew; those of the attempt before
// stay in the run's events (they happened, and their usage was spent).
func (m *mirror) take(p engine.ExecuteProgress, attempt int32) []json.RawMessage {
	if attempt != m.attempt {
		m.attempt, m.appended, m.last = attempt, 0, nil
	}
	end := p.From + len(p.Events)
	if p.From > m.appended || end <= m.appended {
		return nil // nothing new, or a gap the reply fills
	}
	lines := p.Events[m.appended-p.From:]
	m.appended, m.last = end, p.Events[len(p.Events)-1]
	return lines
}

// stop ends the mirror and returns the reply's events it did not append:
// all of them when the reply is not of the attempt it mirrored.
func (m *mirror) stop(events []json.RawMessage) []json.RawMessage {
	if m == nil {
		return events
	}
	m.cancel()
	<-m.done
	n := m.appended
	if n == 0 || n > len(events) || !bytes.Equal(events[n-1], m.last) {
		return events
	}
	return events[n:]
}

// executeProgress is the last progress execute id's agent activity
// reported, and its attempt.
func executeProgress(ctx context.Context, c client.Client, dc converter.DataConverter, id string) (engine.ExecuteProgress, int32, bool) {
	var p engine.ExecuteProgress
	attempt, ok := engine.LastHeartbeat(ctx, c, dc, id, engine.ActivityAgentExecute, &p)
	return p, attempt, ok
}
