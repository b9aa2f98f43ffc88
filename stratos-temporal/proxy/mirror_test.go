package proxy

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

func lines(from, to int) []json.RawMessage {
	var out []json.RawMessage
	for i := from; i < to; i++ {
		out = append(out, json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)))
	}
	return out
}

func text(ls []json.RawMessage) string {
	var s []string
	for _, l := range ls {
		s = append(s, string(l))
	}
	return strings.Join(s, " ")
}

// The mirror appends each event once: what a heartbeat adds, nothing it
// saw already, nothing past a gap (the reply fills it); the reply's
// events it appended are not appended again, unless the reply is of
// another attempt.
func TestMirrorAppendsEachEventOnce(t *testing.T) {
	m := &mirror{cancel: func() {}, done: make(chan struct{})}
	close(m.done)
	steps := []struct {
		p       engine.ExecuteProgress
		attempt int32
		want    string
	}{
		{engine.ExecuteProgress{From: 0, Events: lines(0, 2)}, 1, text(lines(0, 2))},
		{engine.ExecuteProgress{From: 0, Events: lines(0, 2)}, 1, ""},
		{engine.ExecuteProgress{From: 1, Events: lines(1, 4)}, 1, text(lines(2, 4))},
		{engine.ExecuteProgress{From: 6, Events: lines(6, 7)}, 1, ""}, // a gap
	}
	for i, s := range steps {
		if got := text(m.take(s.p, s.attempt)); got != s.want {
			t.Errorf("step %d: appended %q, want %q", i, got, s.want)
		}
	}
	if got := m.stop(lines(0, 7)); !slices.EqualFunc(got, lines(4, 7), func(a, b json.RawMessage) bool { return string(a) == string(b) }) {
		t.Errorf("rest of the reply %q, want events 4–6", text(got))
	}
	// Another attempt's reply: its events were never appended.
	other := []json.RawMessage{json.RawMessage(`{"n":0,"attempt":2}`), json.RawMessage(`{"n":1,"attempt":2}`), json.RawMessage(`{"n":2,"attempt":2}`), json.RawMessage(`{"n":3,"attempt":2}`), json.RawMessage(`{"n":4,"attempt":2}`)}
	if got := m.stop(other); len(got) != len(other) {
		t.Errorf("rest of another attempt's reply: %d events, want all %d", len(got), len(other))
	}
	// A new attempt numbers its events anew.
	if got := text(m.take(engine.ExecuteProgress{From: 0, Events: lines(0, 1)}, 2)); got != text(lines(0, 1)) {
		t.Errorf("a new attempt's first event: %q", got)
	}
	var none *mirror
	if got := none.stop(lines(0, 2)); len(got) != 2 {
		t.Errorf("no mirror: %d events, want 2", len(got))
	}
}

// A heartbeat carries the last events that fit.
func TestProgressOfKeepsTheLastEvents(t *testing.T) {
	big := json.RawMessage(`"` + strings.Repeat("x", engine.ExecuteProgressBytes/2) + `"`)
	events := []json.RawMessage{big, big, big, json.RawMessage(`{"n":3}`)}
	p := engine.ProgressOf("w1", events)
	if p.From != 2 || len(p.Events) != 2 || p.Worker != "w1" {
		t.Errorf("progress from %d with %d events, want from 2 with 2", p.From, len(p.Events))
	}
}
