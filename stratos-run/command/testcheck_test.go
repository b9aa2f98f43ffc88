package command

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Cases that share a script share its check: one batch per distinct entry
// of a target, each knowing the cases that use it.
func TestAddEntryChecksEachDistinctEntryOnce(t *testing.T) {
	a, b := json.RawMessage(`{"harness":"test","test":{"turns":[]}}`), json.RawMessage(`{"harness":"test","test":{"cases":[]}}`)
	var batches []*entryBatch
	batches = addEntry(batches, "critic", a, 0)
	batches = addEntry(batches, "judge#x.y", b, 0)
	batches = addEntry(batches, "critic", a, 1)
	batches = addEntry(batches, "critic", b, 2)
	if len(batches) != 2 {
		t.Fatalf("got %d batches, want 2", len(batches))
	}
	if got := batches[0].users; !reflect.DeepEqual(got, map[string][]int{"critic": {0, 1}, "judge#x.y": {0}}) {
		t.Errorf("first batch's users: %v", got)
	}
	if got := batches[1].users; !reflect.DeepEqual(got, map[string][]int{"critic": {2}}) {
		t.Errorf("second batch's users: %v", got)
	}
	if got := batches[0].target("overrides.agents.judge#x.y.test"); got != "judge#x.y" {
		t.Errorf("target of a dotted label: %q", got)
	}
}

// Cases' decision overrides ride in the agents entries' batches, each
// distinct layer checked once, and a batch sends both.
func TestAddDecisionChecksEachDistinctLayerOnce(t *testing.T) {
	entry := json.RawMessage(`{"harness":"test"}`)
	x, y := json.RawMessage(`{"provider":"test","script":[{"answer":"a"}]}`), json.RawMessage(`{"provider":"test"}`)
	var batches []*entryBatch
	batches = addEntry(batches, "critic", entry, 0)
	batches = addDecision(batches, x, 0)
	batches = addDecision(batches, x, 1)
	batches = addDecision(batches, y, 2)
	if len(batches) != 2 {
		t.Fatalf("got %d batches, want 2", len(batches))
	}
	if got := batches[0].decisionUsers; !reflect.DeepEqual(got, []int{0, 1}) {
		t.Errorf("first batch's decision users: %v", got)
	}
	if got := batches[1].decisionUsers; !reflect.DeepEqual(got, []int{2}) {
		t.Errorf("second batch's decision users: %v", got)
	}
	want := `{"agents":{"critic":{"harness":"test"}},"decision":{"provider":"test","script":[{"answer":"a"}]}}`
	if got := string(batches[0].overrides()); got != want {
		t.Errorf("overrides %s, want %s", got, want)
	}
}
