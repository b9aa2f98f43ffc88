package adaptertest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// reports collects what Conform reports.
type reports []string

func (r *reports) Helper() {}

func (r *reports) Errorf(format string, args ...any) { *r = append(*r, fmt.Sprintf(format, args...)) }

// teleported is a kind the vocabulary does not know.
type teleported struct {
	To string `json:"to"`
}

func (*teleported) EventType() string { return "agent.teleported" }

func TestConformRefusesWhatTheVocabularyDoesNotDefine(t *testing.T) {
	for name, c := range map[string]struct {
		event adapter.Event
		shown string // in the report: the event as a line
	}{
		"unknown kind":     {adapter.NewEvent(eventapi.IDs{}, &teleported{To: "mars"}), `"type":"agent.teleported"`},
		"unknown field":    {adapter.NewEvent(eventapi.IDs{}, &eventapi.Unknown{Type: eventapi.TypeUsage, Raw: json.RawMessage(`{"inputTokens":1,"totalTokens":1}`)}), `"totalTokens":1`},
		"no details":       {adapter.Event{}, `"type":""`},
		"details not JSON": {adapter.NewEvent(eventapi.IDs{}, &eventapi.Unknown{Type: eventapi.TypeUsage, Raw: json.RawMessage(`[1]`)}), `"details":[1]`},
		"wrong field type": {adapter.NewEvent(eventapi.IDs{}, &eventapi.Unknown{Type: eventapi.TypeWorkflowLog, Raw: json.RawMessage(`{"message":1}`)}), `"message":1`},
	} {
		var r Events
		r.Record(adapter.NewEvent(eventapi.IDs{ToolCallID: "t1"}, &eventapi.ToolStarted{ToolName: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}))
		r.Record(c.event)
		var got reports
		r.Conform(&got, "harness fake")
		if len(got) != 1 || !strings.Contains(got[0], "harness fake") || !strings.Contains(got[0], c.shown) {
			t.Errorf("%s: reports %q, want one naming the harness and showing %s", name, got, c.shown)
		}
	}
}

func TestConformAcceptsEveryKind(t *testing.T) {
	var r Events
	for _, k := range eventapi.Kinds() {
		r.Record(adapter.NewEvent(eventapi.IDs{InvocationID: "i", TaskID: "k"}, k))
	}
	r.Record(adapter.Event{Details: &eventapi.BackgroundCompleted{Status: eventapi.StatusIncomplete}, Reconstructed: true})
	var got reports
	r.Conform(&got, "harness fake")
	if len(got) != 0 {
		t.Fatalf("reports %q", got)
	}
}
