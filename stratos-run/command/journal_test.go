package command

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/journalapi"
)

// A resumed journal of its header alone (the run ended before its first
// call) reaches the runtime as an empty list, which it iterates; null made
// it throw, and the run never ended.
func TestReplaySourceOfAHeaderOnlyJournalIsAList(t *testing.T) {
	r := &resumption{from: "20261206T000000Z-aaaa0001", journal: &journalapi.Journal{}}
	b, err := json.Marshal(r.source())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"entries":[]`) {
		t.Fatalf("replay source = %s, want an empty entries list", b)
	}
}
