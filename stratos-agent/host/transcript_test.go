package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
)

// recall is a harness that cannot continue a session (as the ACP ones):
// it replies "got: <prompt>" and keeps every prompt it was sent.
type recall struct {
	mu      sync.Mutex
	prompts []string
}

func (r *recall) harnesses(o adapter.Options) []adapter.Harness {
	return append(harnesses.Builtin(o), adapter.Harness{Name: "recall", Title: "Recall",
		New: func(adapter.Spec, func(adapter.Event), adapter.Hooks) (adapter.Adapter, error) {
			return &recallSession{r: r}, nil
		}})
}

func (r *recall) sent() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.prompts...)
}

type recallSession struct{ r *recall }

func (s *recallSession) Initialize(context.Context) error { return nil }
func (s *recallSession) Cancel()                          {}
func (s *recallSession) Close(context.Context) error      { return nil }

func (s *recallSession) Execute(_ context.Context, prompt string) (adapter.Result, error) {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	s.r.prompts = append(s.r.prompts, prompt)
	return adapter.Result{Text: "got: " + prompt}, nil
}

const recallAgent = `  rec:
    harness: recall
    model: recall/one
`

// executeContinuing is the object's first execute in a resumed run: it
// asks to continue conversation c.
func (f *fixture) executeContinuing(agent, prompt string, c *agentproto.Continuation) *agentproto.ExecuteResult {
	f.t.Helper()
	f.mu.Lock()
	f.calls[agent]++
	n := f.calls[agent]
	f.mu.Unlock()
	text := prompt
	p := agentproto.ExecuteParams{AgentID: agent, Name: agent, Call: n, ExecutionID: "top",
		Workflow: agentproto.WorkflowRef{Name: "wf", Dir: f.dir}, Cwd: f.dir, Config: json.RawMessage(`{"configId":"rec"}`),
		Prompt: agentproto.PromptSource{Text: &text}, Continue: c}
	var res agentproto.ExecuteResult
	if err := f.client.Call(context.Background(), agentproto.MethodAgentExecute, p, &res); err != nil {
		f.t.Fatalf("execute %q: %v", prompt, err)
	}
	return &res
}

// A harness that cannot continue a session keeps each execute's prompt
// in its result, for the journal; one that can does not.
func TestPromptIsKeptOnlyForAHarnessThatCannotContinue(t *testing.T) {
	r := &recall{}
	f := startWith(t, recallAgent+echoAgent, defaults, r.harnesses)
	res, err := f.execute(call{agent: "a1", config: `{"configId":"rec"}`, prompt: `"plan the release"`})
	if err != nil {
		t.Fatal(err)
	}
	if res.Prompt == nil || *res.Prompt != "plan the release" {
		t.Fatalf("recall's result keeps prompt %q, want the prompt sent", deref(res.Prompt))
	}
	res, err = f.execute(call{agent: "a2", config: `{"configId":"echo"}`, prompt: `"hello"`})
	if err != nil {
		t.Fatal(err)
	}
	if res.Prompt != nil {
		t.Fatalf("the test harness continues sessions itself, yet its result keeps prompt %q", *res.Prompt)
	}
}

// A resumed agent on a harness that cannot continue its session starts a
// new one whose first prompt carries the replayed exchange, in order,
// then the new prompt; its later prompts go as they are, the journal
// keeps the prompt without the exchange, and the event says the
// conversation continued by transcript.
func TestResumedAgentCarriesTheReplayedExchange(t *testing.T) {
	r := &recall{}
	f := startWith(t, recallAgent, defaults, r.harnesses)
	c := &agentproto.Continuation{Session: agentproto.SessionRef{Harness: "recall", ID: "s-1"}, Calls: 2, Transcript: []agentproto.Exchange{
		{Call: 1, Prompt: "name a colour", Reply: "teal"},
		{Call: 2, Prompt: "and a fruit", Reply: `{"fruit":"fig"}`},
	}}
	res := f.executeContinuing("a1", "now a number", c)
	ev := f.waitEvent(eventapi.TypeAgentSessionContinued)
	d, ok := ev.Details.(*eventapi.AgentSessionContinued)
	if !ok || d.Continued || !d.ByTranscript || d.Exchanges != 2 || d.Omitted != 0 || !strings.Contains(d.Reason, "first prompt carries the replayed exchange") {
		t.Fatalf("agent.session.continued: %+v", ev.Details)
	}
	f.text(call{agent: "a1", config: `{"configId":"rec"}`, prompt: `"one more"`})
	sent := r.sent()
	if len(sent) != 2 {
		t.Fatalf("harness got %d prompts, want 2: %q", len(sent), sent)
	}
	first := sent[0]
	order := []string{"<earlier-conversation>", "name a colour", "teal", "and a fruit", `{"fruit":"fig"}`, "</earlier-conversation>", "now a number"}
	at := 0
	for _, s := range order {
		i := strings.Index(first[at:], s)
		if i < 0 {
			t.Fatalf("first prompt lacks %q after byte %d (in order %q):\n%s", s, at, order, first)
		}
		at += i + len(s)
	}
	if !strings.HasSuffix(first, "\nnow a number") || strings.Contains(first, "left out") {
		t.Fatalf("first prompt does not end with the new prompt, or says exchanges are left out:\n%s", first)
	}
	if sent[1] != "one more" {
		t.Fatalf("second prompt %q, want it as it is", sent[1])
	}
	if res.Prompt == nil || *res.Prompt != "now a number" {
		t.Fatalf("result keeps prompt %v, want the prompt without the exchange", res.Prompt)
	}
}

func TestFrameTranscriptLeavesOutTheOldestBeyondTheLimit(t *testing.T) {
	var ex []agentproto.Exchange
	for i := 1; i <= 10; i++ {
		ex = append(ex, agentproto.Exchange{Call: i, Prompt: fmt.Sprintf("prompt %d %s", i, strings.Repeat("p", 400)), Reply: fmt.Sprintf("reply %d", i)})
	}
	limit := 3*len(exchangeBlock(ex[9])) + 10
	got := frameTranscript(&agentproto.Continuation{Calls: 10, Transcript: ex}, limit)
	if got.carried != 3 || got.omitted != 7 {
		t.Fatalf("carried %d, omitted %d; want 3 and 7", got.carried, got.omitted)
	}
	if !strings.Contains(got.text, "[the conversation's first 7 exchange(s) are left out, to keep this short]") {
		t.Fatalf("the framing does not say what it left out:\n%s", got.text)
	}
	for i := 1; i <= 10; i++ {
		has := strings.Contains(got.text, fmt.Sprintf("<exchange call=\"%d\">", i))
		if has != (i >= 8) {
			t.Errorf("exchange %d carried: %v, want only the newest three", i, has)
		}
	}
	if a, b := strings.Index(got.text, "reply 8"), strings.Index(got.text, "reply 10"); a < 0 || b < a {
		t.Errorf("the carried exchanges are not oldest first:\n%s", got.text)
	}
}

// Exchanges whose prompts the journal did not keep (a conversation that
// moved between harnesses) count as left out.
func TestFrameTranscriptCountsCallsWithoutAPrompt(t *testing.T) {
	got := frameTranscript(&agentproto.Continuation{Calls: 3, Transcript: []agentproto.Exchange{{Call: 3, Prompt: "p", Reply: "r"}}}, transcriptLimit)
	if got.carried != 1 || got.omitted != 2 || !strings.Contains(got.text, "first 2 exchange(s) are left out") {
		t.Fatalf("%+v", got)
	}
	if none := frameTranscript(&agentproto.Continuation{Calls: 2}, transcriptLimit); none.text != "" || none.carried != 0 {
		t.Fatalf("a conversation without kept prompts framed %+v", none)
	}
}

// An exchange larger than the limit alone is carried with the middle of
// its prompt and reply cut, within the limit and valid UTF-8.
func TestFrameTranscriptCutsAnExchangeLargerThanTheLimit(t *testing.T) {
	huge := "start " + strings.Repeat("é", 50_000) + " end"
	got := frameTranscript(&agentproto.Continuation{Calls: 2, Transcript: []agentproto.Exchange{
		{Call: 1, Prompt: "old", Reply: "old"}, {Call: 2, Prompt: huge, Reply: huge}}}, 4096)
	if got.carried != 1 || got.omitted != 1 {
		t.Fatalf("carried %d, omitted %d; want 1 and 1", got.carried, got.omitted)
	}
	if len(got.text) > 4096+1024 || !utf8.ValidString(got.text) {
		t.Fatalf("framing of %d bytes (valid UTF-8: %v), want about 4096", len(got.text), utf8.ValidString(got.text))
	}
	for _, s := range []string{"start é", "é end", "bytes cut …]", `<exchange call="2">`} {
		if !strings.Contains(got.text, s) {
			t.Errorf("framing lacks %q", s)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
