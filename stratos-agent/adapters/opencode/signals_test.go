package opencode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// TestMeasureTurnEndSignals is a measurement behind ending a turn at the
// synchronous route's answer (docs/harness-opencode.md, "Where a turn's
// time goes"): per turn on one real server, it sends the prompt through
// the synchronous route and notes when the global event stream delivers
// the answer's completed message update, the session's idle status and
// the answer's text part, relative to the route's response. It asserts
// only the order the adapter relies on when the stream ends a turn (the
// completed message, and with it the text, before the idle) and logs the
// figures.
//
// It runs in every test run with a few turns (the order is what it
// checks); OPENCODE_MEASURE_TURNS raises the count for a measurement.
func TestMeasureTurnEndSignals(t *testing.T) {
	const warmup = 2
	turns := 4
	if n, err := strconv.Atoi(os.Getenv("OPENCODE_MEASURE_TURNS")); err == nil && n > 0 {
		turns = n
	}
	answer := "answer"
	b := openaiBed(t, fakemodel.Script{Turns: []fakemodel.Turn{{Match: fakemodel.Match{Marker: "[m]"}, Repeat: true,
		Reply: []fakemodel.Block{{Text: &answer}}}}}, true)
	spec := adapter.Spec{Name: "measure", Models: []string{"openai/gpt-4.1"}, SystemPrompt: "You answer.",
		WorkingDirectory: b.Work, WorkflowDir: b.Work}
	s := newSession(openaiOptions(b).WithDefaults(), spec, func(adapter.Event) {}, nil, nil)
	if err := s.Initialize(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	rec := &signalRecorder{arrivals: map[string]signalArrival{}}
	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	if _, err := subscribe(ctx, s.c, rec.observe); err != nil {
		t.Fatal(err)
	}
	var final, idle, text, gap []time.Duration
	for i := range warmup + turns {
		id := s.nextMessageID()
		body := map[string]any{"messageID": id, "agent": agentName,
			"model": map[string]string{"providerID": "openai", "modelID": "gpt-4.1"},
			"parts": []any{map[string]string{"type": "text", "text": fmt.Sprintf("[m] turn %d", i)}}}
		if err := s.c.call(t.Context(), "POST", "/session/"+s.sid+"/message", body, nil); err != nil {
			t.Fatal(err)
		}
		responded := time.Now()
		a := rec.wait(t, id)
		if a.final.After(a.idle) {
			t.Errorf("turn %d: the completed message arrived %v after the idle", i, a.final.Sub(a.idle))
		}
		if i >= warmup {
			final = append(final, a.final.Sub(responded))
			idle = append(idle, a.idle.Sub(responded))
			text = append(text, a.text.Sub(responded))
			gap = append(gap, a.idle.Sub(a.final))
		}
	}
	late := 0
	for _, d := range text {
		if d > 0 {
			late++
		}
	}
	t.Logf("%d turns, after the synchronous response (min / median / max): completed message %v / %v / %v, idle %v / %v / %v; "+
		"the idle a median %v after the completed message; the answer's text arrived after the response in %d turns", turns, slices.Min(final), median(final), slices.Max(final),
		slices.Min(idle), median(idle), slices.Max(idle), median(gap), late)
}

// signalArrival is when the stream delivered a turn's signals.
type signalArrival struct{ text, final, idle time.Time }

// signalRecorder notes arrivals per prompt (by the answer's parentID);
// the idle goes to the prompt whose answer completed last.
type signalRecorder struct {
	mu       sync.Mutex
	arrivals map[string]signalArrival
	last     string
	answers  map[string]string // assistant message ID → prompt ID
}

func (r *signalRecorder) observe(ev event) {
	now := time.Now()
	var p props
	if json.Unmarshal(ev.Properties, &p) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.answers == nil {
		r.answers = map[string]string{}
	}
	switch {
	case ev.Type == "message.updated" && p.Info != nil && p.Info.Role == "assistant":
		r.answers[p.Info.ID] = p.Info.ParentID
		if p.Info.Finish == "stop" && strings.Contains(string(ev.Properties), `"completed"`) {
			a := r.arrivals[p.Info.ParentID]
			if a.final.IsZero() {
				a.final = now
			}
			r.arrivals[p.Info.ParentID], r.last = a, p.Info.ParentID
		}
	case ev.Type == "message.part.updated" && p.Part != nil && p.Part.Type == "text" && p.Part.Text != "":
		prompt := r.answers[p.Part.MessageID]
		a := r.arrivals[prompt]
		if a.text.IsZero() {
			a.text = now
		}
		r.arrivals[prompt] = a
	case ev.Type == "session.status" && p.Status != nil && p.Status.Type == "idle" && r.last != "":
		a := r.arrivals[r.last]
		if a.idle.IsZero() {
			a.idle = now
		}
		r.arrivals[r.last] = a
	}
}

// wait returns the arrivals of prompt id once all three came.
func (r *signalRecorder) wait(t *testing.T, id string) signalArrival {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		a := r.arrivals[id]
		r.mu.Unlock()
		if !a.text.IsZero() && !a.final.IsZero() && !a.idle.IsZero() {
			return a
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("the stream did not deliver the end of prompt %s within a minute", id)
	return signalArrival{}
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
