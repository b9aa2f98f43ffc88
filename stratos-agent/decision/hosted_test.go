package decision

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/shared/fakemodel"
)

// fakeKey stands for a provider's key; tests check it never shows.
const fakeKey = "sk-fake-decision-key"

// fakeHosted runs the fake model server (Chat Completions and Messages
// APIs) with the given turns on 127.0.0.1.
func fakeHosted(t *testing.T, turns string) *fakemodel.Server {
	t.Helper()
	s, err := fakemodel.ParseScript([]byte(`{"turns": ` + turns + `}`))
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

// hostedAsker has both providers' keys and a catalog that knows one
// model of each, priced.
func hostedAsker(env map[string]string) *Asker {
	return &Asker{HTTP: &http.Client{}, Getenv: func(k string) string { return env[k] },
		Catalog: func(_ context.Context, model, provider string) (CatalogModel, error) {
			switch model + " " + provider {
			case "openai/gpt-4.1-mini openai":
				return CatalogModel{NativeID: "gpt-4.1-mini", Price: &modelsapi.Price{Input: 0.4, Output: 1.6}}, nil
			case "anthropic/claude-haiku-4-5 anthropic":
				return CatalogModel{NativeID: "claude-haiku-4-5", Price: &modelsapi.Price{Input: 1, Output: 5}}, nil
			}
			return CatalogModel{}, errors.New("no explicit mapping for " + model + " on provider " + provider)
		}}
}

func keys() map[string]string {
	return map[string]string{"OPENAI_API_KEY": fakeKey, "ANTHROPIC_API_KEY": fakeKey}
}

func body(t *testing.T, e fakemodel.Entry) map[string]any {
	t.Helper()
	var b map[string]any
	if err := json.Unmarshal(e.Body, &b); err != nil {
		t.Fatal(err)
	}
	return b
}

// An OpenAI catalog ID chooses the OpenAI-compatible backend: the native
// ID, a strict json_schema response format and logprobs are sent with
// the key as a bearer token; the confidence is the answer tokens'
// probability, and the turn is priced from the catalog.
func TestDecideOpenAI(t *testing.T) {
	srv := fakeHosted(t, `[{"match": {"api": "chat", "model": "gpt-4.1-mini"}, "reply": [{"structuredOutput": {"answer": "blue"}}],
	  "tokenLogprobs": {"blue": -0.25}, "usage": {"inputTokens": 1000, "outputTokens": 100}}]`)
	var ev events
	res, err := hostedAsker(keys()).Decide(context.Background(), Request{Question: choiceQ("red", "blue"),
		Layers: []Layer{layer("workflow.yaml decision", `{"model": "openai/gpt-4.1-mini", "baseUrl": "`+srv.URL+`/v1", "seed": 3}`)}}, ev.emit)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Answer) != `"blue"` || res.Basis != agentproto.BasisLogprobs || res.Confidence != round6(math.Exp(-0.25)) ||
		res.Provider != "openai" || res.Model != "openai/gpt-4.1-mini" || res.Endpoint != srv.URL+"/v1" {
		t.Errorf("result %+v", res)
	}
	if want := (agentproto.CallUsage{Tokens: 1100, USD: 0.00056, Turns: 1}); *res.Usage != want {
		t.Errorf("usage %+v, want %+v", *res.Usage, want)
	}
	u := ev.got[1].(*eventapi.Usage)
	if u.CostUSD == nil || *u.CostUSD != 0.00056 || u.CostProvenance != eventapi.CostPriced || u.Provider != "openai" {
		t.Errorf("usage event %+v", u)
	}
	e := srv.Log().Entries()[0]
	b := body(t, e)
	format, _ := json.Marshal(b["response_format"])
	if e.Path != "/v1/chat/completions" || e.Auth != "bearer" || e.Model != "gpt-4.1-mini" || b["logprobs"] != true || b["seed"] != 3.0 ||
		!strings.Contains(string(format), `"type":"json_schema"`) || !strings.Contains(string(format), `"strict":true`) ||
		!strings.Contains(string(e.Schema), `"enum":["red","blue"]`) {
		t.Errorf("request %s %s auth %s: %s", e.Path, e.Model, e.Auth, e.Body)
	}
	if len(e.System) != 1 || !strings.HasPrefix(e.Prompt, "Which one?") {
		t.Errorf("messages: system %q, prompt %q", e.System, e.Prompt)
	}
	assertNoKey(t, &ev, nil)
}

// An endpoint that refuses logprobs is asked again without them, and not
// asked for them again; the confidence is then the samples' agreement.
func TestDecideOpenAIWithoutLogprobs(t *testing.T) {
	srv := fakeHosted(t, `[{"error": {"kind": "invalid_request", "message": "logprobs is not supported with this model"}},
	  {"repeat": true, "reply": [{"structuredOutput": {"answer": "yes"}}]}]`)
	a := hostedAsker(keys())
	verdict := Request{Question: agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "Done?"},
		Layers: []Layer{layer("o", `{"provider": "openai", "model": "o4-mini", "baseUrl": "`+srv.URL+`/v1"}`)}}
	for range 2 {
		res, err := a.Decide(context.Background(), verdict, func(eventapi.Details) {})
		if err != nil || res.Basis != agentproto.BasisAgreement || res.Confidence != 1 {
			t.Fatalf("%+v, %v", res, err)
		}
	}
	var asked []any
	for _, e := range srv.Log().Entries() {
		asked = append(asked, body(t, e)["logprobs"])
	}
	if len(asked) != 3 || asked[0] != true || asked[1] != nil || asked[2] != nil {
		t.Errorf("logprobs asked: %v", asked)
	}
}

// An Anthropic catalog ID chooses the Messages API: one tool with the
// answer's schema, forced, the system prompt apart, the key in
// x-api-key. A reply without the tool call is asked again.
func TestDecideAnthropic(t *testing.T) {
	srv := fakeHosted(t, `[{"match": {"api": "anthropic"}, "reply": [{"text": "Probably yes."}]},
	  {"match": {"api": "anthropic", "model": "claude-haiku-4-5"}, "reply": [{"structuredOutput": {"answer": "yes", "reason": "all green"}}],
	   "usage": {"inputTokens": 200, "outputTokens": 20}}]`)
	var ev events
	res, err := hostedAsker(keys()).Decide(context.Background(), Request{Question: agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "Tests pass?"},
		Layers: []Layer{layer("o", `{"model": "anthropic/claude-haiku-4-5", "baseUrl": "`+srv.URL+`", "reasons": true, "temperature": 0}`)}}, ev.emit)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Answer) != `"yes"` || res.Basis != agentproto.BasisAgreement || res.Confidence != 1 || len(res.Reasons) != 1 || res.Reasons[0] != "all green" ||
		res.Provider != "anthropic" || res.Usage.Turns != 2 || res.Usage.UnknownCostTurns != 0 {
		t.Errorf("result %+v usage %+v", res, res.Usage)
	}
	if got := ev.types(); got != "decision.started usage decision.retry usage decision.completed" {
		t.Errorf("events %s", got)
	}
	e := srv.Log().Entries()[0]
	b := body(t, e)
	choice, _ := json.Marshal(b["tool_choice"])
	if e.Path != "/v1/messages" || e.Auth != "x-api-key" || e.Headers["anthropic-version"] != anthropicVersion || e.Model != "claude-haiku-4-5" ||
		string(choice) != `{"name":"answer","type":"tool"}` || !strings.Contains(string(e.Schema), `"reason"`) ||
		len(e.System) != 1 || b["temperature"] != 0.0 {
		t.Errorf("request %s auth %s headers %v: %s", e.Path, e.Auth, e.Headers, e.Body)
	}
	assertNoKey(t, &ev, nil)
}

// What goes wrong with a hosted provider, each with its code; none of
// the errors shows the key.
func TestDecideHostedFailures(t *testing.T) {
	srv := fakeHosted(t, `[{"match": {"model": "gone"}, "repeat": true, "error": {"kind": "not_found"}},
	  {"match": {"model": "locked"}, "repeat": true, "error": {"kind": "authentication"}},
	  {"match": {"model": "busy"}, "repeat": true, "error": {"kind": "api_error", "message": "try later"}}]`)
	verdict := agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "x"}
	for _, c := range []struct {
		name, raw string
		env       map[string]string
		code      string
		text      string
	}{
		{"openai no key", `{"model": "openai/gpt-4.1-mini"}`, nil, agentproto.CodeDecisionConfiguration, "decisions on provider openai need its key in OPENAI_API_KEY"},
		{"anthropic no key", `{"provider": "anthropic", "model": "claude-x"}`, nil, agentproto.CodeDecisionConfiguration, "need its key in ANTHROPIC_API_KEY"},
		{"creator is no provider", `{"model": "google/gemini-2.5-flash"}`, keys(), agentproto.CodeDecisionConfiguration, `the decision's model "google/gemini-2.5-flash" needs a provider`},
		{"catalog cannot map", `{"model": "openai/gpt-9"}`, keys(), agentproto.CodeDecisionConfiguration, `the decision's model "openai/gpt-9" on provider openai: no explicit mapping`},
		{"invalid baseUrl", `{"model": "openai/gpt-4.1-mini", "baseUrl": "not a url at all"}`, keys(), agentproto.CodeDecisionConfiguration,
			`o.baseUrl: "not a url at all" is not an HTTP(S) URL: it needs the scheme http:// or https:// (e.g. http://127.0.0.1:11434) (the decision's endpoint; Stratos does not fall back to https://api.openai.com/v1)`},
		{"not found", `{"provider": "openai", "model": "gone", "baseUrl": "` + srv.URL + `/v1"}`, keys(), agentproto.CodeDecisionModelUnavailable, "POST /chat/completions answered HTTP 404"},
		{"anthropic not found", `{"provider": "anthropic", "model": "gone", "baseUrl": "` + srv.URL + `"}`, keys(), agentproto.CodeDecisionModelUnavailable, "Anthropic endpoint at " + srv.URL + ": POST /v1/messages answered HTTP 404"},
		{"refused key", `{"provider": "openai", "model": "locked", "baseUrl": "` + srv.URL + `/v1"}`, keys(), agentproto.CodeDecisionEndpoint, "answered HTTP 401: Incorrect API key provided. (the key is read from OPENAI_API_KEY)"},
		{"server error", `{"provider": "anthropic", "model": "busy", "baseUrl": "` + srv.URL + `"}`, keys(), agentproto.CodeDecisionEndpoint, "answered HTTP 500: try later"},
	} {
		var ev events
		_, err := hostedAsker(c.env).Decide(context.Background(), Request{Question: verdict, Layers: []Layer{layer("o", c.raw)}}, ev.emit)
		if agentproto.CodeOf(err) != c.code || !strings.Contains(errText(err), c.text) {
			t.Errorf("%s: %v (%s); want %s with %q", c.name, err, agentproto.CodeOf(err), c.code, c.text)
		}
		assertNoKey(t, &ev, err)
	}
}

// A compatible server of one's own needs no key, and takes its own model
// names as written, unpriced (the catalog cannot map them).
func TestDecideOpenAICompatibleWithoutKey(t *testing.T) {
	srv := fakeHosted(t, `[{"match": {"model": "Qwen/Qwen3-8B"}, "reply": [{"structuredOutput": {"answer": 4}}]}]`)
	res, err := hostedAsker(nil).Decide(context.Background(), Request{Question: scoreQ(1, 5, nil),
		Layers: []Layer{layer("o", `{"provider": "openai", "model": "Qwen/Qwen3-8B", "baseUrl": "`+srv.URL+`/v1"}`)}}, func(eventapi.Details) {})
	if err != nil || string(res.Answer) != "4" || res.Usage.UnknownCostTurns != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	if e := srv.Log().Entries()[0]; e.Auth != "none" {
		t.Errorf("auth %s", e.Auth)
	}
}

// assertNoKey fails when the key shows in an event or the error.
func assertNoKey(t *testing.T, ev *events, err error) {
	t.Helper()
	ev.mu.Lock()
	defer ev.mu.Unlock()
	all, _ := json.Marshal(ev.got)
	if strings.Contains(string(all), fakeKey) || strings.Contains(errText(err), fakeKey) {
		t.Errorf("the key shows: %s %v", all, err)
	}
	var e *agentproto.Error
	if errors.As(err, &e) {
		details, _ := json.Marshal(e.Details)
		if strings.Contains(string(details), fakeKey) {
			t.Errorf("the key shows in details: %s", details)
		}
	}
}

// The answer's probability is the product of its tokens' probabilities,
// a string's quotes included; tokens that do not spell the content give
// none. With samples, every sample's probability of the majority answer
// is averaged, 0 for those that gave another.
func TestAnswerProbability(t *testing.T) {
	toks := func(pairs ...any) []tokenLogprob {
		var out []tokenLogprob
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, tokenLogprob{Token: pairs[i].(string), Logprob: pairs[i+1].(float64)})
		}
		return out
	}
	content := `{"answer": "red", "reason": "x"}`
	p, ok := answerProbability(content, toks(`{"answer": `, -0.5, `"`, -0.1, `red`, -0.2, `"`, 0.0, `, "reason": "x"}`, -3.0))
	if !ok || math.Abs(p-math.Exp(-0.3)) > 1e-12 {
		t.Errorf("p = %v, %v", p, ok)
	}
	if _, ok := answerProbability(content, toks(`{"answer": "blue"}`, 0.0)); ok {
		t.Error("tokens that spell another content gave a probability")
	}
	if _, ok := answerProbability(`{"answer": 7}`, nil); ok {
		t.Error("no tokens gave a probability")
	}
	p, ok = answerProbability(`{"answer":7}`, toks(`{"answer":`, -1.0, `7`, -0.5, `}`, 0.0))
	if !ok || math.Abs(p-math.Exp(-0.5)) > 1e-12 {
		t.Errorf("number: p = %v, %v", p, ok)
	}
	a, b := 0.9, 0.6
	res := majority([]reply{{answer: json.RawMessage(`"a"`), prob: &a}, {answer: json.RawMessage(`"b"`), prob: &b}, {answer: json.RawMessage(`"a"`), prob: &a}})
	if string(res.Answer) != `"a"` || res.Basis != agentproto.BasisLogprobs || res.Confidence != 0.6 {
		t.Errorf("samples %+v", res)
	}
	res = majority([]reply{{answer: json.RawMessage(`"a"`), prob: &a}, {answer: json.RawMessage(`"a"`)}})
	if res.Basis != agentproto.BasisAgreement || res.Confidence != 1 {
		t.Errorf("a sample without logprobs: %+v", res)
	}
}

// startModels runs the fake model server with a hosted model list and
// returns its URL.
func startModels(t *testing.T, models string) string {
	t.Helper()
	s, err := fakemodel.ParseScript([]byte(`{"models": ` + models + `, "turns": []}`))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(s, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv.URL
}

// The catalog is asked once per model and provider, not per decision.
func TestDecideAsksTheCatalogOnce(t *testing.T) {
	srv := fakeHosted(t, `[{"repeat": true, "reply": [{"structuredOutput": {"answer": "yes"}}]}]`)
	a := hostedAsker(keys())
	lookup, asked := a.Catalog, 0
	a.Catalog = func(ctx context.Context, model, provider string) (CatalogModel, error) {
		asked++
		return lookup(ctx, model, provider)
	}
	verdict := Request{Question: agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "x"},
		Layers: []Layer{layer("o", `{"model": "openai/gpt-4.1-mini", "baseUrl": "`+srv.URL+`/v1"}`)}}
	for range 3 {
		if _, err := a.Decide(context.Background(), verdict, func(eventapi.Details) {}); err != nil {
			t.Fatal(err)
		}
	}
	if asked != 1 {
		t.Errorf("the catalog was asked %d times", asked)
	}
}
