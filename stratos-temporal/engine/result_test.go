package engine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/temporalapi"
)

// A result carries its output once (stdout), and no events when they
// would make it larger than a payload may be; the state it gives has the
// output back.
func TestResultFitsAPayload(t *testing.T) {
	out := []byte(`{"text":"hi"}`)
	big := json.RawMessage(`{"text":"` + strings.Repeat("x", 600<<10) + `"}`)
	r := RunResult{Stdout: out, Stderr: []byte(strings.Repeat("e", 1<<20)),
		State: temporalapi.RunState{Status: "succeeded", Output: out, Events: []json.RawMessage{big}}}
	r.Fit()
	if r.State.Output != nil || r.State.Events != nil || !r.State.EventsCut {
		t.Errorf("fitted state: output %q, %d events, cut %v; want neither, cut", r.State.Output, len(r.State.Events), r.State.EventsCut)
	}
	if s := r.FullState(); string(s.Output) != string(out) {
		t.Errorf("FullState output = %q, want %q", s.Output, out)
	}
	small := RunResult{Stdout: out, State: temporalapi.RunState{Status: "succeeded", Output: out, Events: []json.RawMessage{json.RawMessage(`{}`)}}}
	small.Fit()
	if len(small.State.Events) != 1 || small.State.EventsCut {
		t.Errorf("a small result lost its events: %+v", small.State)
	}
}

func TestAReplysBytesCountItsAnswerAndEvents(t *testing.T) {
	r := ExecuteReply{Result: []byte(`{"text":"hi"}`), Events: []json.RawMessage{[]byte(`{"v":1}`), []byte(`{"v":2}`)}, Worker: "w1"}
	if got, want := r.Bytes(), len(`{"text":"hi"}`)+2*len(`{"v":1}`)+2; got != want {
		t.Errorf("Bytes = %d, want %d", got, want)
	}
}
