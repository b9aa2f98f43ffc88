package proxy

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// A finished execute's journal entry is the one the SDK writes: its place,
// its call and the host's result; a result without text or value replays
// as empty text.
func TestExecuteEntryIsTheSDKs(t *testing.T) {
	place := &agentproto.ExecutePlace{Path: `"wf"`, ConfigID: "writer", Label: "l", Agent: 2, InputSHA256: "abc"}
	req := engine.ExecuteRequest{Call: 3, Place: place}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e, err := executeEntry(at, req, engine.ExecuteReply{Result: json.RawMessage(`{"text":"done"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if e.Kind != journalapi.KindExecute || e.Path != `"wf"` || e.InputSHA256 != "abc" || !e.At.Equal(at) ||
		e.Execute.ConfigID != "writer" || e.Execute.Label != "l" || e.Execute.Agent != 2 || e.Execute.Call != 3 || *e.Execute.Text != "done" {
		t.Errorf("entry = %+v (execute %+v), want the execute's place, call and text", e, e.Execute)
	}
	e, err = executeEntry(at, req, engine.ExecuteReply{Result: json.RawMessage(`{}`)})
	if err != nil || e.Execute.Text == nil || *e.Execute.Text != "" {
		t.Errorf("entry of an empty result = %+v, %v; want empty text", e.Execute, err)
	}
}
