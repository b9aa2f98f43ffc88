package claudecode

import (
	"encoding/json"
	"strings"
	"syscall"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// A background task that finishes makes Claude Code start a turn of its
// own; its result must not be taken for the answer to the next prompt.
func TestWakeUpTurnIsNotTheNextAnswer(t *testing.T) {
	b := newBed(t, `{"turns":[
	  {"match":{"marker":"[bg]"},"reply":[{"toolUse":{"name":"Bash","input":{"command":"timeout 1 tail -f /dev/null; echo done","description":"bg","run_in_background":true}}}]},
	  {"match":{"marker":"[bg]"},"reply":[{"text":"started"}]},
	  {"match":{"marker":"[next]"},"reply":[{"text":"the next answer"}]}
	],"fallback":{"reply":[{"text":"woke up"}]}}`)
	a := b.adapter(adapter.Spec{}, nil)
	mustExecute(t, a, "[bg] start")
	waitFor(t, "the wake-up turn's result", func() bool {
		for _, e := range b.EventsOf("usage") {
			if e.Details.(*eventapi.Usage).Unsolicited {
				return true
			}
		}
		return false
	})
	if got := mustExecute(t, a, "[next] go").Text; got != "the next answer" {
		t.Errorf("next execute returned %q", got)
	}
	if len(b.EventsOf("background.completed")) == 0 {
		t.Errorf("no background.completed event")
	}
}

// afterToolCall sees a failed call's error; block adds the reason.
func TestAfterToolCallSeesFailures(t *testing.T) {
	b := newBed(t, `{"turns":[
	  {"match":{"marker":"[fail]"},"reply":[{"toolUse":{"name":"Bash","input":{"command":"echo broken >&2; exit 3","description":"fail"}}}]},
	  {"match":{"marker":"[fail]"},"reply":[{"text":"FINAL"}]}
	]}`)
	var seen *agentproto.ToolError
	hooks := &adaptertest.Hooks{After: func(_ adapter.ToolCall, _ json.RawMessage, e *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
		seen = e
		return agentproto.AfterToolCallResult{Action: agentproto.ActionBlock, Reason: "failure noted by policy"}, nil
	}}
	a := b.adapter(adapter.Spec{}, hooks)
	mustExecute(t, a, "[fail] go")
	if seen == nil || !strings.Contains(seen.Message, "broken") {
		t.Fatalf("afterToolCall error %+v", seen)
	}
	last := b.modelRequests()[1]
	if !strings.Contains(string(last.Body), "failure noted by policy") {
		t.Errorf("the block reason did not reach the model")
	}
	if c := b.EventsOf("tool.completed"); len(c) != 1 || !c[0].Details.(*eventapi.ToolCompleted).IsError {
		t.Errorf("tool.completed %+v", c)
	}
}

// /compact produces the compaction events; the conversation goes on.
func TestCompactionEvents(t *testing.T) {
	b := newBed(t, `{"turns":[
	  {"match":{"marker":"[one]"},"reply":[{"text":"first"}]},
	  {"match":{"marker":"[two]"},"reply":[{"text":"second"}]}
	],"fallback":{"reply":[{"text":"<summary>we talked</summary>"}]}}`)
	a := b.adapter(adapter.Spec{}, nil)
	mustExecute(t, a, "[one] hi")
	mustExecute(t, a, "/compact")
	if len(b.EventsOf("compaction.started")) != 1 || len(b.EventsOf("compaction.completed")) != 1 {
		t.Errorf("compaction events: %d started, %d completed", len(b.EventsOf("compaction.started")), len(b.EventsOf("compaction.completed")))
	}
	if got := mustExecute(t, a, "[two] again").Text; got != "second" {
		t.Errorf("after compaction: %q", got)
	}
}

// A CLI that died between prompts is restarted on the same conversation.
func TestCrashedCLIResumesTheConversation(t *testing.T) {
	b := newBed(t, `{"turns":[
	  {"match":{"marker":"[one]"},"reply":[{"text":"remember me"}]},
	  {"match":{"marker":"[two]"},"reply":[{"text":"resumed"}]}
	]}`)
	a := b.adapter(adapter.Spec{}, nil)
	mustExecute(t, a, "[one] hi")
	p := a.(*session).proc
	if err := syscall.Kill(p.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.exited
	if got := mustExecute(t, a, "[two] still there?").Text; got != "resumed" {
		t.Fatalf("after the crash: %q", got)
	}
	last := b.modelRequests()[1]
	if !strings.Contains(string(last.Body), "remember me") {
		t.Errorf("the restarted CLI lost the conversation")
	}
}
