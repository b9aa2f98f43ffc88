package opencode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/process"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// replayBed is a session whose stream is fed by hand, with a fake server
// answering GET /session/s/message with messages.
type replayBed struct {
	s      *session
	obs    *observer
	t      *turn
	events []string // "type detail" of each reported event
	gets   atomic.Int32
}

func newReplayBed(t *testing.T, messages string) *replayBed {
	b := &replayBed{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/session/s/message" || r.URL.Query().Get("limit") != "16" {
			http.NotFound(w, r)
			return
		}
		b.gets.Add(1)
		_, _ = w.Write([]byte(messages))
	}))
	t.Cleanup(srv.Close)
	b.obs = newObserver(func(e adapter.Event) {
		d := ""
		switch x := e.Details.(type) {
		case *eventapi.MessageDelta:
			d = fmt.Sprint(x.Kind, ":", x.Text)
		case *eventapi.ToolStarted, *eventapi.ToolCompleted:
			d = e.IDs.ToolCallID
		case *eventapi.ModelStarted, *eventapi.ModelCompleted:
			d = e.IDs.MessageID
		case *eventapi.Usage:
			d = fmt.Sprint(x.InputTokens, "/", x.OutputTokens)
		}
		b.events = append(b.events, strings.TrimSpace(e.Type()+" "+d))
	})
	b.s = newSession(Options{}.WithDefaults(), adapter.Spec{Name: "a"}, nil, nil, nil)
	b.s.sid, b.s.c, b.s.obs = "s", newClient(srv.URL, "pw", "/w"), b.obs
	b.t = newTurn(t.Context(), "msg_u")
	b.s.turn = b.t
	return b
}

// stream hands the session one event of the stream.
func (b *replayBed) stream(t *testing.T, typ, props string) {
	t.Helper()
	b.s.onEvent(b.obs, event{Type: typ, Properties: json.RawMessage(props)})
}

// end replays the synchronous answer and ends the turn as runTurn does.
func (b *replayBed) end(t *testing.T, answer string) adapter.Result {
	t.Helper()
	var last reply
	if err := json.Unmarshal([]byte(answer), &last); err != nil {
		t.Fatal(err)
	}
	res, err := b.s.endTurn(t.Context(), turnEnv{c: b.s.c, sid: "s", obs: b.obs}, b.t, promptAnswer{last: last, ok: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	b.t.finish()
	return res
}

func (b *replayBed) check(t *testing.T, want ...string) {
	t.Helper()
	if strings.Join(b.events, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(b.events, "\n"), strings.Join(want, "\n"))
	}
}

const (
	answerText = `{"info":{"id":"msg_a","sessionID":"s","role":"assistant","parentID":"msg_u","providerID":"openai","modelID":"gpt-5","finish":"stop"},
	"parts":[{"id":"prt_1","sessionID":"s","messageID":"msg_a","type":"step-start"},
	{"id":"prt_2","sessionID":"s","messageID":"msg_a","type":"text","text":"Hello world"},
	{"id":"prt_3","sessionID":"s","messageID":"msg_a","type":"step-finish","reason":"stop","tokens":{"input":7,"output":2}}]}`
	userMessage = `{"sessionID":"s","info":{"id":"msg_u","sessionID":"s","role":"user"}}`
)

// The stream delivered part of the answer before the synchronous
// response: the rest is reported from the response, in order, inside the
// turn, and the stream's late copies are dropped.
func TestReplayReportsWhatTheStreamHasNotDeliveredOnce(t *testing.T) {
	b := newReplayBed(t, `[]`)
	b.stream(t, "message.updated", userMessage)
	b.stream(t, "session.status", `{"sessionID":"s","status":{"type":"busy"}}`)
	b.stream(t, "message.updated", `{"sessionID":"s","info":{"id":"msg_a","sessionID":"s","role":"assistant","parentID":"msg_u","providerID":"openai","modelID":"gpt-5"}}`)
	b.stream(t, "message.part.updated", `{"part":{"id":"prt_2","sessionID":"s","messageID":"msg_a","type":"text","text":""}}`)
	b.stream(t, "message.part.delta", `{"sessionID":"s","messageID":"msg_a","partID":"prt_2","field":"text","delta":"Hel"}`)
	if res := b.end(t, answerText); res.Text != "Hello world" {
		t.Fatalf("text %q", res.Text)
	}
	// The stream's late copies of the same turn.
	b.stream(t, "message.part.delta", `{"sessionID":"s","messageID":"msg_a","partID":"prt_2","field":"text","delta":"lo world"}`)
	b.stream(t, "message.part.updated", `{"part":{"id":"prt_3","sessionID":"s","messageID":"msg_a","type":"step-finish","reason":"stop","tokens":{"input":7,"output":2}}}`)
	b.stream(t, "message.updated", `{"sessionID":"s","info":{"id":"msg_a","sessionID":"s","role":"assistant","parentID":"msg_u","finish":"stop"}}`)
	b.stream(t, "session.status", `{"sessionID":"s","status":{"type":"idle"}}`)
	b.obs.endTurn() // the next turn, without steps of its own
	b.check(t, "model.started msg_a", "message.delta text:Hel", "message.delta text:lo world", "model.completed msg_a", "usage 7/2")
	if b.gets.Load() != 0 {
		t.Errorf("a one-step turn read the session's messages %d times", b.gets.Load())
	}
}

// A turn with a tool call has several assistant messages, and the
// response is only the last one: when the stream has not delivered the
// last one's creation, the earlier steps are read from the session's
// messages and reported before it.
func TestATurnWithAToolCallReadsItsEarlierSteps(t *testing.T) {
	step1 := `{"info":{"id":"msg_1","sessionID":"s","role":"assistant","parentID":"msg_u","providerID":"openai","modelID":"gpt-5","finish":"tool-calls"},
	"parts":[{"id":"prt_0","sessionID":"s","messageID":"msg_1","type":"tool","tool":"bash","callID":"call_1","state":{"status":"completed","input":{"command":"ls"},"output":"a.txt"}},
	{"id":"prt_01","sessionID":"s","messageID":"msg_1","type":"step-finish","reason":"tool-calls","tokens":{"input":5,"output":1}}]}`
	b := newReplayBed(t, `[{"info":{"id":"msg_u","sessionID":"s","role":"user"},"parts":[]},`+step1+`,`+answerText+`]`)
	b.t.announceTool() // the plugin's call before the tool ran
	b.end(t, answerText)
	b.check(t, "model.started msg_1", "tool.started call_1", "tool.completed call_1", "model.completed msg_1",
		"model.started msg_a", "message.delta text:Hello world", "model.completed msg_a", "usage 12/3")
	// Late copies of the tool's states report nothing.
	b.stream(t, "message.part.updated", `{"part":{"id":"prt_0","sessionID":"s","messageID":"msg_1","type":"tool","tool":"bash","callID":"call_1","state":{"status":"running","input":{"command":"ls"}}}}`)
	b.stream(t, "message.part.updated", `{"part":{"id":"prt_0","sessionID":"s","messageID":"msg_1","type":"tool","tool":"bash","callID":"call_1","state":{"status":"completed","input":{"command":"ls"},"output":"a.txt"}}}`)
	if len(b.events) != 8 {
		t.Fatalf("late copies were reported: %v", b.events[8:])
	}
	if b.gets.Load() != 1 {
		t.Errorf("read the session's messages %d times, want once", b.gets.Load())
	}
}

// When the stream already delivered the last message's creation, it
// delivered every earlier step before it (OpenCode publishes in order):
// no read, even after a tool call.
func TestStepsTheStreamDeliveredAreNotReadAgain(t *testing.T) {
	b := newReplayBed(t, `[]`)
	b.t.announceTool()
	b.stream(t, "message.updated", `{"sessionID":"s","info":{"id":"msg_1","sessionID":"s","role":"assistant","parentID":"msg_u","providerID":"openai","modelID":"gpt-5"}}`)
	b.stream(t, "message.part.updated", `{"part":{"id":"prt_0","sessionID":"s","messageID":"msg_1","type":"tool","tool":"bash","callID":"call_1","state":{"status":"completed","input":{},"output":"x"}}}`)
	b.stream(t, "message.updated", `{"sessionID":"s","info":{"id":"msg_a","sessionID":"s","role":"assistant","parentID":"msg_u","providerID":"openai","modelID":"gpt-5"}}`)
	b.end(t, answerText)
	b.check(t, "model.started msg_1", "tool.started call_1", "tool.completed call_1", "model.started msg_a",
		"message.delta text:Hello world", "model.completed msg_a", "usage 7/2")
	if b.gets.Load() != 0 {
		t.Errorf("read the session's messages %d times, want none", b.gets.Load())
	}
}

// The turn's messages are the session's last ones: they are read with a
// growing limit until the prompt's message is among them, not the whole
// session at once.
func TestTurnMessagesAreReadBackToThePrompt(t *testing.T) {
	var all []string
	for i := range 40 {
		id := fmt.Sprintf("msg_%02d", i)
		all = append(all, `{"info":{"id":"`+id+`","sessionID":"s","role":"assistant","parentID":"msg_u"},"parts":[]}`)
	}
	all[21] = `{"info":{"id":"msg_u","sessionID":"s","role":"user"},"parts":[]}` // 19th from the end
	var limits []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit := r.URL.Query().Get("limit")
		limits = append(limits, limit)
		var n int
		_, _ = fmt.Sscan(limit, &n)
		_, _ = w.Write([]byte("[" + strings.Join(all[max(0, len(all)-n):], ",") + "]"))
	}))
	t.Cleanup(srv.Close)
	msgs, err := recentMessages(t.Context(), turnEnv{c: newClient(srv.URL, "pw", "/w"), sid: "s"}, "msg_u")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(limits, ",") != "16,64" || len(msgs) != 40 {
		t.Fatalf("limits %v, %d messages; want 16 then 64, all 40", limits, len(msgs))
	}
}

// A prompt OpenCode refuses (HTTP 400, no message) is not the end of the
// story: the stream's session.error, then the idle, end the turn and
// classify the failure, as when every turn ended on the stream.
func TestARefusedPromptEndsWithTheStreamsError(t *testing.T) {
	b := newReplayBed(t, `[]`)
	p, err := process.Start(process.Spec{Name: "stand-in", Path: "sleep", Args: []string{"600"}, Grace: process.Grace{StdinClose: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Shutdown(context.Background()) })
	b.stream(t, "message.updated", userMessage)
	b.stream(t, "session.error", `{"sessionID":"s","error":{"name":"UnknownError","data":{"message":"Model not found: openai/gpt-x"}}}`)
	b.stream(t, "session.status", `{"sessionID":"s","status":{"type":"idle"}}`)
	refusal := &httpError{Method: "POST", Path: "/session/s/message", Status: 400}
	_, err = b.s.endTurn(t.Context(), turnEnv{c: b.s.c, sid: "s", obs: b.obs, srv: &server{p: p}, events: make(chan struct{})},
		b.t, promptAnswer{err: refusal}, false)
	var r *rejection.Error
	if !errors.As(err, &r) || r.Reason != rejection.ModelUnavailable {
		t.Fatalf("error %v; want the stream's model-unavailable rejection", err)
	}
}

// The stream's late copy of a text part's first update (still empty)
// arriving between the replay and the outcome does not replace the text
// the answer gave: the replay ended the turn for the stream.
func TestALateEmptyTextPartDoesNotReplaceTheAnswer(t *testing.T) {
	b := newReplayBed(t, `[]`)
	b.stream(t, "message.updated", userMessage)
	b.stream(t, "session.status", `{"sessionID":"s","status":{"type":"busy"}}`)
	b.stream(t, "message.updated", `{"sessionID":"s","info":{"id":"msg_a","sessionID":"s","role":"assistant","parentID":"msg_u","providerID":"openai","modelID":"gpt-5"}}`)
	var last reply
	if err := json.Unmarshal([]byte(answerText), &last); err != nil {
		t.Fatal(err)
	}
	b.s.replay(t.Context(), turnEnv{c: b.s.c, sid: "s", obs: b.obs}, b.obs, b.t, last)
	b.stream(t, "message.part.updated", `{"part":{"id":"prt_2","sessionID":"s","messageID":"msg_a","type":"text","text":""}}`)
	res, err := b.t.outcome(false, "a")
	if err != nil || res.Text != "Hello world" {
		t.Fatalf("outcome %q, %v; want the answer's text", res.Text, err)
	}
}
