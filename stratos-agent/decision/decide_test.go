package decision

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/admission"
)

// fakeOllama runs the fake model server with an Ollama inventory and the
// given turns on 127.0.0.1.
func fakeOllama(t testing.TB, turns string) *fakemodel.Server {
	t.Helper()
	s, err := fakemodel.ParseScript([]byte(`{"ollama": {"models": [{"name": "qwen3:8b"}, {"name": "tiny:1b", "capabilities": ["completion"]},
	  {"name": "embed:latest", "capabilities": ["embedding"]}]}, "turns": ` + turns + `}`))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(s, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// events collects what a decision emits.
type events struct {
	mu  sync.Mutex
	got []eventapi.Details
}

func (e *events) emit(d eventapi.Details) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.got = append(e.got, d)
}

func (e *events) types() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, d := range e.got {
		out = append(out, d.EventType())
	}
	return strings.Join(out, " ")
}

func asker(srv *fakemodel.Server) *Asker {
	return &Asker{HTTP: &http.Client{}, Getenv: func(k string) string {
		if k == "OLLAMA_HOST" && srv != nil {
			return srv.URL
		}
		return ""
	}}
}

func ollamaLayer(extra string) Layer {
	return layer("decision() options", `{"provider": "ollama", "model": "qwen3:8b"`+extra+`}`)
}

// A choice is answered with the option the model chose, through
// /api/chat with the answer's schema as format; the events say what
// happened, and the usage is the server's counts.
func TestDecideChoice(t *testing.T) {
	srv := fakeOllama(t, `[{"reply": [{"structuredOutput": {"answer": "blue"}}], "usage": {"inputTokens": 30, "outputTokens": 4}}]`)
	var ev events
	res, err := asker(srv).Decide(context.Background(), Request{Question: choiceQ("red", "blue"), Layers: []Layer{ollamaLayer(`, "temperature": 0, "seed": 42`)}}, ev.emit)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Answer) != `"blue"` || res.Confidence != 1 || res.Basis != agentproto.BasisAgreement || res.Samples != 1 ||
		res.Provider != "ollama" || res.Model != "qwen3:8b" || res.Endpoint != srv.URL {
		t.Errorf("result %+v", res)
	}
	if want := (agentproto.CallUsage{Tokens: 34, Turns: 1, UnknownCostTurns: 1}); res.Usage == nil || *res.Usage != want {
		t.Errorf("usage %+v, want %+v", res.Usage, want)
	}
	if got := ev.types(); got != "decision.started usage decision.completed" {
		t.Errorf("events %s", got)
	}
	started := ev.got[0].(*eventapi.DecisionStarted)
	if *started != (eventapi.DecisionStarted{Kind: "choice", Provider: "ollama", Model: "qwen3:8b", Endpoint: srv.URL, Samples: 1}) {
		t.Errorf("started %+v", started)
	}
	// The inventory is read before the first question, then the chat.
	var paths []string
	for _, e := range srv.Log().Entries() {
		paths = append(paths, e.Path)
	}
	if strings.Join(paths, " ") != "/api/tags /api/show /api/chat" {
		t.Fatalf("requests %v", paths)
	}
	chat := srv.Log().Entries()[2]
	var body struct {
		Stream   bool
		Format   json.RawMessage
		Options  map[string]any
		Messages []message
	}
	if err := json.Unmarshal(chat.Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Stream || !strings.Contains(string(body.Format), `"enum":["red","blue"]`) || !reflect.DeepEqual(body.Options, map[string]any{"temperature": 0.0, "seed": 42.0}) {
		t.Errorf("request body %s", chat.Body)
	}
	if len(body.Messages) != 2 || body.Messages[0].Role != "system" || !strings.HasPrefix(body.Messages[1].Content, "Which one?") {
		t.Errorf("messages %+v", body.Messages)
	}
}

// The inventory is checked once per endpoint and model, not per decision.
func TestDecideChecksTheModelOnce(t *testing.T) {
	srv := fakeOllama(t, `[{"repeat": true, "reply": [{"structuredOutput": {"answer": "yes"}}]}]`)
	a := asker(srv)
	verdict := agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "Done?"}
	for range 3 {
		if _, err := a.Decide(context.Background(), Request{Question: verdict, Layers: []Layer{ollamaLayer("")}}, func(eventapi.Details) {}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(srv.Log().Entries()); n != 5 {
		t.Errorf("%d requests, want tags, show and three chats", n)
	}
}

// An invalid answer is sent back with what was wrong; a valid one on the
// retry is the answer.
func TestDecideRetriesAnInvalidAnswer(t *testing.T) {
	srv := fakeOllama(t, `[{"reply": [{"structuredOutput": {"answer": "purple"}}]}, {"reply": [{"structuredOutput": {"answer": "red"}}]}]`)
	var ev events
	res, err := asker(srv).Decide(context.Background(), Request{Question: choiceQ("red", "blue"), Layers: []Layer{ollamaLayer(`, "retries": 1`)}}, ev.emit)
	if err != nil || string(res.Answer) != `"red"` || res.Usage.Turns != 2 {
		t.Fatalf("%+v, %v", res, err)
	}
	if got := ev.types(); got != "decision.started usage decision.retry usage decision.completed" {
		t.Errorf("events %s", got)
	}
	if r := ev.got[2].(*eventapi.DecisionRetry); *r != (eventapi.DecisionRetry{Sample: 1, Attempt: 1, Of: 2, Problem: `the answer "purple" is not one of: red, blue`}) {
		t.Errorf("retry %+v", r)
	}
	entries := srv.Log().Entries()
	second := entries[len(entries)-1]
	if second.Messages != 4 || !strings.Contains(second.Prompt, `Your reply cannot be used: the answer "purple" is not one of: red, blue.`) {
		t.Errorf("the retry's request: %d messages, prompt %q", second.Messages, second.Prompt)
	}
}

// When every attempt is invalid the decision fails with
// decision_invalid_answer, keeping each attempt.
func TestDecideFailsAfterTheRetries(t *testing.T) {
	srv := fakeOllama(t, `[{"reply": [{"text": "I think red"}]}, {"reply": [{"structuredOutput": {"answer": "green"}}]}]`)
	var ev events
	_, err := asker(srv).Decide(context.Background(), Request{Question: choiceQ("red", "blue"), Layers: []Layer{ollamaLayer(`, "retries": 1`)}}, ev.emit)
	var e *agentproto.Error
	if !errors.As(err, &e) || e.Code != agentproto.CodeDecisionInvalidAnswer ||
		err.Error() != `the model's answer is invalid: the answer "green" is not one of: red, blue (after 2 attempts)` {
		t.Fatalf("error %v", err)
	}
	attempts := e.Details["attempts"].([]attempt)
	if len(attempts) != 2 || attempts[0].Reply != "I think red" || attempts[0].Problem != "the reply is not one JSON object" || attempts[1].Attempt != 2 {
		t.Errorf("attempts %+v", attempts)
	}
	if e.Details["model"] != "qwen3:8b" || e.Details["endpoint"] != srv.URL {
		t.Errorf("details %v", e.Details)
	}
	done := ev.got[len(ev.got)-1].(*eventapi.DecisionCompleted)
	if done.Status != "failed" || done.Error.Code != agentproto.CodeDecisionInvalidAnswer || done.Answer != nil {
		t.Errorf("completed %+v", done)
	}
}

// Samples: the majority answer, with the agreement as the confidence,
// each sample with its own seed; a tie goes to the earliest sample's.
func TestDecideSamples(t *testing.T) {
	srv := fakeOllama(t, `[{"reply": [{"structuredOutput": {"answer": 7, "reason": "ok"}}]},
	  {"reply": [{"structuredOutput": {"answer": 8, "reason": "fine"}}]},
	  {"reply": [{"structuredOutput": {"answer": 8, "reason": "good"}}]}]`)
	res, err := asker(srv).Decide(context.Background(), Request{Question: scoreQ(1, 10, nil), Layers: []Layer{ollamaLayer(`, "samples": 3, "seed": 10, "reasons": true`)}}, func(eventapi.Details) {})
	if err != nil {
		t.Fatal(err)
	}
	// The samples run at once, so which sample got which turn varies.
	slices.Sort(res.Reasons)
	if string(res.Answer) != "8" || res.Confidence != 0.666667 || res.Samples != 3 || !reflect.DeepEqual(res.Reasons, []string{"fine", "good"}) {
		t.Errorf("result %+v", res)
	}
	var seeds []string
	for _, e := range srv.Log().Entries() {
		if e.Path == "/api/chat" {
			var b struct {
				Options struct{ Seed json.RawMessage }
			}
			_ = json.Unmarshal(e.Body, &b)
			seeds = append(seeds, string(b.Options.Seed))
		}
	}
	slices.Sort(seeds)
	if strings.Join(seeds, " ") != "10 11 12" {
		t.Errorf("seeds %v", seeds)
	}
	tie := majority([]reply{{answer: json.RawMessage(`"a"`)}, {answer: json.RawMessage(`"b"`)}, {answer: json.RawMessage(`"b"`)}, {answer: json.RawMessage(`"a"`)}})
	if string(tie.Answer) != `"a"` || tie.Confidence != 0.5 {
		t.Errorf("tie %+v", tie)
	}
}

// What goes wrong before or around the model: each with its code.
func TestDecideFailures(t *testing.T) {
	srv := fakeOllama(t, `[{"match": {"marker": "[busy]"}, "error": {"kind": "api_error", "message": "busy"}},
	  {"match": {"marker": "[slow]"}, "delay": "1h", "reply": [{"text": "late"}]}]`)
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + closed.Addr().String()
	closed.Close()
	verdict := func(prompt string) agentproto.Question {
		return agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: prompt}
	}
	for _, c := range []struct {
		name   string
		q      agentproto.Question
		layers []Layer
		code   string
		text   string
	}{
		{"no model", verdict("x"), nil, agentproto.CodeDecisionConfiguration, "a decision needs a model"},
		{"no provider", verdict("x"), []Layer{layer("decision() options", `{"model": "qwen3:8b"}`)}, agentproto.CodeDecisionConfiguration, `the decision's model "qwen3:8b" needs a provider (known: anthropic, ollama, openai, test)`},
		{"jev", verdict("x"), []Layer{layer("decision() options", `{"provider": "jev", "model": "x"}`)}, agentproto.CodeDecisionConfiguration, `decisions cannot use provider "jev" (known: anthropic, ollama, openai, test)`},
		{"missing model", verdict("x"), []Layer{ollamaLayer(""), layer("o", `{"model": "mistral:7b"}`)}, agentproto.CodeDecisionModelUnavailable, "not installed: mistral:7b (installed: embed:latest, qwen3:8b, tiny:1b)"},
		{"no completion", verdict("x"), []Layer{ollamaLayer(""), layer("o", `{"model": "embed"}`)}, agentproto.CodeDecisionModelUnavailable, "embed:latest cannot answer decisions: lacks the completion capability"},
		{"server error", verdict("[busy]"), []Layer{ollamaLayer("")}, agentproto.CodeDecisionEndpoint, "POST /api/chat answered HTTP 500: busy"},
		{"server down", verdict("x"), []Layer{ollamaLayer(`, "baseUrl": "` + down + `"`)}, agentproto.CodeDecisionEndpoint, "not reachable"},
		{"timeout", verdict("[slow]"), []Layer{ollamaLayer(`, "timeoutMs": 50`)}, agentproto.CodeDecisionTimeout, "the decision took longer than its timeoutMs (50 ms)"},
	} {
		_, err := asker(srv).Decide(context.Background(), Request{Question: c.q, Layers: c.layers}, func(eventapi.Details) {})
		if agentproto.CodeOf(err) != c.code || !strings.Contains(errText(err), c.text) {
			t.Errorf("%s: %v (%s); want %s with %q", c.name, err, agentproto.CodeOf(err), c.code, c.text)
		}
	}
}

// A model that has no tools answers decisions: "decision-only".
func TestDecideOnAModelWithoutTools(t *testing.T) {
	srv := fakeOllama(t, `[{"reply": [{"structuredOutput": {"answer": "no"}}]}]`)
	res, err := asker(srv).Decide(context.Background(), Request{Question: agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "x"},
		Layers: []Layer{ollamaLayer(""), layer("o", `{"model": "tiny:1b"}`)}}, func(eventapi.Details) {})
	if err != nil || string(res.Answer) != `"no"` {
		t.Fatalf("%+v, %v", res, err)
	}
}

// A name without a tag is the model's :latest, in the request, the
// events and the result alike, as Ollama takes it.
func TestDecideCompletesTheTag(t *testing.T) {
	s, err := fakemodel.ParseScript([]byte(`{"ollama": {"models": [{"name": "llama3.2:latest"}]},
	  "turns": [{"match": {"model": "llama3.2:latest"}, "reply": [{"structuredOutput": {"answer": "yes"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(s, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var ev events
	res, err := asker(srv).Decide(context.Background(), Request{Question: agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "x"},
		Layers: []Layer{layer("o", `{"provider": "ollama", "model": "llama3.2"}`)}}, ev.emit)
	if err != nil || res.Model != "llama3.2:latest" || ev.got[0].(*eventapi.DecisionStarted).Model != "llama3.2:latest" {
		t.Fatalf("%+v, %v", res, err)
	}
	_, err = asker(srv).Decide(context.Background(), Request{Question: agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "x"},
		Layers: []Layer{layer("o", `{"provider": "ollama", "model": "a:b:c"}`)}}, ev.emit)
	if agentproto.CodeOf(err) != agentproto.CodeDecisionConfiguration || !strings.Contains(err.Error(), `the decision's model: Ollama: invalid model name "a:b:c"`) {
		t.Errorf("invalid name: %v", err)
	}
}

// A cancelled decision stops its request and ends with the context's
// cause, not a timeout.
func TestDecideCancelled(t *testing.T) {
	srv := fakeOllama(t, `[{"delay": "1h", "reply": [{"text": "late"}]}]`)
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("stopped by the test")
	var ev events
	emit := func(d eventapi.Details) {
		ev.emit(d)
		if _, ok := d.(*eventapi.DecisionStarted); ok {
			go func() {
				for len(srv.Log().Entries()) < 3 { // until the chat request is in flight
					time.Sleep(time.Millisecond)
				}
				cancel(stop)
			}()
		}
	}
	_, err := asker(srv).Decide(ctx, Request{Question: choiceQ("a", "b"), Layers: []Layer{ollamaLayer("")}}, emit)
	if !errors.Is(err, stop) {
		t.Fatalf("error %v, want the cancel's cause", err)
	}
	if got := ev.types(); got != "decision.started decision.completed" {
		t.Fatalf("events %s", got)
	}
	// The record's code says cancelled, as the SDK's CancelledError does,
	// not internal.
	done := ev.got[1].(*eventapi.DecisionCompleted)
	if done.Status != eventapi.StatusFailed || done.Error == nil || done.Error.Code != agentproto.CodeCancelled || !strings.Contains(done.Error.Message, "stopped by the test") {
		t.Errorf("decision.completed %+v, error %+v; want failed with code cancelled and the cause", done, done.Error)
	}
}

// Each sample takes a slot of the run's decisions pool: a pool of one
// slot asks the samples one after another; a pool that cannot even queue
// a sample fails the decision with the pool's error.
func TestDecideSamplesTakeSlots(t *testing.T) {
	srv := fakeOllama(t, `[{"repeat": true, "reply": [{"structuredOutput": {"answer": "yes"}}]}]`)
	a := asker(srv)
	a.Slots = admission.NewWith(1, 3, func(c, o, r, q int) error {
		return agentproto.Errorf(agentproto.CodeDecisionAdmission, "full")
	})
	verdict := Request{Question: agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "x"}, Layers: []Layer{ollamaLayer(`, "samples": 3`)}}
	res, err := a.Decide(context.Background(), verdict, func(eventapi.Details) {})
	if err != nil || res.Samples != 3 || res.Confidence != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	// With the one slot taken (by another decision), a sample cannot queue.
	pool := admission.NewWith(1, 1, func(c, o, r, q int) error {
		return agentproto.Errorf(agentproto.CodeDecisionAdmission, "full: %d running, %d waiting", r, q)
	})
	if err := pool.Acquire(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	a.Slots = pool
	_, err = a.Decide(context.Background(), verdict, func(eventapi.Details) {})
	if agentproto.CodeOf(err) != agentproto.CodeDecisionAdmission || err.Error() != "full: 1 running, 0 waiting" {
		t.Fatalf("a sample while the pool is full: %v", err)
	}
}

// A sample that has to wait for a slot of the pool says so with
// decision.admission.queued, naming the sample, before it is asked.
func TestDecideRecordsTheWaitForASlot(t *testing.T) {
	srv := fakeOllama(t, `[{"repeat": true, "reply": [{"structuredOutput": {"answer": "yes"}}]}]`)
	a := asker(srv)
	pool := admission.NewWith(1, 10, func(c, o, r, q int) error { return errors.New("full") })
	if err := pool.Acquire(context.Background(), nil); err != nil { // another decision's slot
		t.Fatal(err)
	}
	a.Slots = pool
	var ev events
	var once sync.Once
	emit := func(d eventapi.Details) {
		ev.emit(d)
		ev.mu.Lock()
		queued := 0
		for _, e := range ev.got {
			if _, ok := e.(*eventapi.DecisionAdmissionQueued); ok {
				queued++
			}
		}
		ev.mu.Unlock()
		if queued == 2 {
			once.Do(pool.Release) // the other decision ends
		}
	}
	verdict := Request{Question: agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "x"}, Layers: []Layer{ollamaLayer(`, "samples": 2`)}}
	if _, err := a.Decide(context.Background(), verdict, emit); err != nil {
		t.Fatal(err)
	}
	var samples []int
	for _, e := range ev.got {
		if q, ok := e.(*eventapi.DecisionAdmissionQueued); ok {
			samples = append(samples, q.Sample)
		}
	}
	slices.Sort(samples)
	if !reflect.DeepEqual(samples, []int{1, 2}) || !strings.HasPrefix(ev.types(), "decision.started decision.admission.queued decision.admission.queued usage") {
		t.Errorf("queued samples %v, events %s", samples, ev.types())
	}
}
