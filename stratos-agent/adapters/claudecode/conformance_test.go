package claudecode

import (
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

func TestConversationMemorySystemPromptAndToolUse(t *testing.T) {
	b := newBed(t, `{"turns":[
	  {"match":{"marker":"[one]"},"reply":[{"text":"first answer"}]},
	  {"match":{"marker":"[two]"},"reply":[{"toolUse":{"name":"Bash","input":{"command":"echo from-bash","description":"Print"}}}]},
	  {"match":{"marker":"[two]"},"reply":[{"text":"FINAL: second"}]}
	]}`)
	a := b.adapter(adapter.Spec{SystemPrompt: "You are the Stratos test agent."}, nil)
	if got := mustExecute(t, a, "[one] hello").Text; got != "first answer" {
		t.Fatalf("first reply %q", got)
	}
	if got := mustExecute(t, a, "[two] run it").Text; got != "FINAL: second" {
		t.Fatalf("second reply %q", got)
	}
	reqs := b.modelRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	for _, r := range reqs {
		if !slices.Contains(r.System, "You are the Stratos test agent.") {
			t.Errorf("system prompt not sent: %q", r.System)
		}
		if r.Model != "claude-opus-4-7" {
			t.Errorf("model %q, want the native ID claude-opus-4-7", r.Model)
		}
	}
	// The second prompt carries the first exchange: one conversation.
	if reqs[1].Messages < 3 || !strings.Contains(string(reqs[1].Body), "first answer") {
		t.Errorf("second request lacks the first exchange (%d messages)", reqs[1].Messages)
	}
	if tr := reqs[2].ToolResults; len(tr) != 1 || !strings.HasPrefix(tr[0].Content, "from-bash") || tr[0].IsError {
		t.Errorf("tool result %+v, want the real output of echo", tr)
	}
	if len(b.eventsOf("tool.started")) != 1 || len(b.eventsOf("tool.completed")) != 1 {
		t.Errorf("tool events: %d started, %d completed", len(b.eventsOf("tool.started")), len(b.eventsOf("tool.completed")))
	}
	if len(b.eventsOf("message.delta")) == 0 || len(b.eventsOf("model.completed")) != 3 || len(b.eventsOf("usage")) != 2 {
		t.Errorf("events: %d deltas, %d model.completed, %d usage", len(b.eventsOf("message.delta")), len(b.eventsOf("model.completed")), len(b.eventsOf("usage")))
	}
}
