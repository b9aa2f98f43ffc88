package decision

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

func chatOf(prompt string, maxTokens int, layers ...Layer) ChatRequest {
	return ChatRequest{System: "You summarise.", Messages: []ChatMessage{{Role: "user", Text: "Earlier?"}, {Role: "assistant", Text: "Yes."}, {Role: "user", Text: prompt}},
		MaxTokens: maxTokens, Layers: layers}
}

// A chat on Ollama is one /api/chat request without a format, the system
// prompt first, maxTokens as num_predict; the answer is the text, its
// usage one usage event.
func TestChatOllama(t *testing.T) {
	srv := fakeOllama(t, `[{"match": {"marker": "[short]"}, "reply": [{"text": "Cut"}], "stopReason": "max_tokens", "usage": {"inputTokens": 20, "outputTokens": 1}},
	  {"reply": [{"text": "A summary."}], "usage": {"inputTokens": 30, "outputTokens": 4}}]`)
	var ev events
	reply, err := asker(srv).Chat(context.Background(), chatOf("Summarise this.", 50, ollamaLayer(`, "temperature": 0`)), ev.emit)
	if err != nil {
		t.Fatal(err)
	}
	if reply.Text != "A summary." || reply.StopReason != StopEndTurn || reply.Provider != "ollama" || reply.Model != "qwen3:8b" {
		t.Errorf("reply %+v", reply)
	}
	if want := (agentproto.CallUsage{Tokens: 34, Turns: 1, UnknownCostTurns: 1}); reply.Usage == nil || *reply.Usage != want {
		t.Errorf("usage %+v, want %+v", reply.Usage, want)
	}
	if got := ev.types(); got != "usage" {
		t.Fatalf("events %s", got)
	}
	if u := ev.got[0].(*eventapi.Usage); u.Provider != "ollama" || u.Model != "qwen3:8b" || u.Tokens.InputTokens != 30 || u.Tokens.OutputTokens != 4 {
		t.Errorf("usage event %+v", u)
	}
	entries := srv.Log().Entries()
	chat := entries[len(entries)-1]
	b := body(t, chat)
	if chat.Path != "/api/chat" || b["format"] != nil || b["stream"] != false {
		t.Errorf("request %s: %s", chat.Path, chat.Body)
	}
	if opts, _ := b["options"].(map[string]any); opts["num_predict"] != 50.0 || opts["temperature"] != 0.0 {
		t.Errorf("options %v", b["options"])
	}
	if len(chat.System) != 1 || chat.System[0] != "You summarise." || chat.Prompt != "Summarise this." || chat.Messages != 4 {
		t.Errorf("system %q, prompt %q, %d messages", chat.System, chat.Prompt, chat.Messages)
	}

	reply, err = asker(srv).Chat(context.Background(), chatOf("[short] Summarise.", 1, ollamaLayer("")), ev.emit)
	if err != nil || reply.Text != "Cut" || reply.StopReason != StopMaxTokens {
		t.Errorf("a cut answer: %+v, %v", reply, err)
	}
}

// A model Ollama does not have fails the chat as it fails a decision,
// naming the model and the endpoint.
func TestChatOllamaModelUnavailable(t *testing.T) {
	srv := fakeOllama(t, `[]`)
	_, err := asker(srv).Chat(context.Background(), chatOf("Hi", 10, layer("decision() options", `{"provider": "ollama", "model": "absent:1b"}`)), func(eventapi.Details) {})
	var e *agentproto.Error
	if !asAgentError(err, &e) || e.Code != agentproto.CodeDecisionModelUnavailable || e.Details["endpoint"] != srv.URL {
		t.Fatalf("error %v", err)
	}
}

// The hosted backends send a free-text request: no response format or
// tools, the token limit as the API names it, the system prompt where
// the API takes it; a priced model's usage is priced.
func TestChatHosted(t *testing.T) {
	srv := fakeHosted(t, `[{"match": {"api": "chat"}, "reply": [{"text": "From GPT."}], "stopReason": "max_tokens", "usage": {"inputTokens": 1000, "outputTokens": 100}},
	  {"match": {"api": "anthropic"}, "reply": [{"text": "From Claude."}], "usage": {"inputTokens": 1000, "outputTokens": 100}}]`)
	var ev events
	reply, err := hostedAsker(keys()).Chat(context.Background(), chatOf("Summarise.", 64,
		layer("workflow.yaml decision", `{"model": "openai/gpt-4.1-mini", "baseUrl": "`+srv.URL+`/v1"}`)), ev.emit)
	if err != nil {
		t.Fatal(err)
	}
	if reply.Text != "From GPT." || reply.StopReason != StopMaxTokens || reply.Usage.USD != 0.00056 {
		t.Errorf("openai reply %+v usage %+v", reply, reply.Usage)
	}
	reply, err = hostedAsker(keys()).Chat(context.Background(), chatOf("Summarise.", 64,
		layer("workflow.yaml decision", `{"model": "anthropic/claude-haiku-4-5", "baseUrl": "`+srv.URL+`"}`)), ev.emit)
	if err != nil {
		t.Fatal(err)
	}
	if reply.Text != "From Claude." || reply.StopReason != StopEndTurn {
		t.Errorf("anthropic reply %+v", reply)
	}
	entries := srv.Log().Entries()
	openai, anthropic := body(t, entries[0]), body(t, entries[1])
	if openai["max_tokens"] != 64.0 || openai["response_format"] != nil || openai["logprobs"] != nil {
		t.Errorf("openai request %s", entries[0].Body)
	}
	if anthropic["max_tokens"] != 64.0 || anthropic["tools"] != nil || anthropic["system"] != "You summarise." {
		t.Errorf("anthropic request %s", entries[1].Body)
	}
	if got := ev.types(); got != "usage usage" {
		t.Errorf("events %s", got)
	}
	assertNoKey(t, &ev, nil)
}

// The test provider answers a chat from its script's text entries, the
// first whose when matches the last user message; decision entries do
// not answer chats, nor text entries decisions.
func TestChatScripted(t *testing.T) {
	script := `{"provider": "test", "script": [{"when": {"kind": "verdict"}, "answer": "yes"},
	  {"when": {"promptContains": "fail"}, "fail": "decision_endpoint"},
	  {"when": {"kind": "text", "promptContains": "down"}, "fail": "decision_endpoint", "message": "down"},
	  {"when": {"promptContains": "Summarise"}, "text": "one two three four"}]}`
	reply, err := asker(nil).Chat(context.Background(), chatOf("Summarise.", 0, layer("overrides.decision", script)), nil)
	if err != nil || reply.Text != "one two three four" || reply.StopReason != StopEndTurn || reply.Provider != ProviderTest {
		t.Fatalf("reply %+v, %v", reply, err)
	}
	reply, err = asker(nil).Chat(context.Background(), chatOf("Summarise.", 2, layer("overrides.decision", script)), nil)
	if err != nil || reply.Text != "one two" || reply.StopReason != StopMaxTokens {
		t.Errorf("a cut reply %+v, %v", reply, err)
	}
	var e *agentproto.Error
	if _, err := asker(nil).Chat(context.Background(), chatOf("is it down?", 0, layer("overrides.decision", script)), nil); !asAgentError(err, &e) || e.Code != agentproto.CodeDecisionEndpoint || !strings.Contains(err.Error(), "down") {
		t.Errorf("a failing entry: %v", err)
	}
	if _, err := asker(nil).Chat(context.Background(), chatOf("Hello", 0, layer("overrides.decision", script)), nil); !asAgentError(err, &e) || e.Code != agentproto.CodeDecisionConfiguration {
		t.Errorf("no entry: %v", err)
	}
	_, err = asker(nil).Decide(context.Background(), Request{Question: choiceQ("a", "b"),
		Layers: []Layer{layer("overrides.decision", `{"provider": "test", "script": [{"text": "a"}]}`)}}, func(eventapi.Details) {})
	if !asAgentError(err, &e) || e.Code != agentproto.CodeDecisionConfiguration {
		t.Errorf("a text entry answered a decision: %v", err)
	}
}

func TestScriptTextEntriesChecked(t *testing.T) {
	for raw, want := range map[string]string{
		`[{"text": "x", "answer": "a"}]`:               "give one of answer, text or fail",
		`[{"when": {"kind": "verdict"}, "text": "x"}]`: "text answers free-text requests only",
		`[{"when": {"kind": "text"}, "answer": "a"}]`:  "give text",
		`[{"when": {"kind": "prose"}, "text": "x"}]`:   "not choice, score, verdict or text",
	} {
		if _, err := decodeScript([]byte(raw)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
}

func asAgentError(err error, e **agentproto.Error) bool { return errors.As(err, e) }

// An OpenAI reasoning model refuses max_tokens: the chat is asked again
// with max_completion_tokens, and the host asks that model so from then on.
func TestChatOpenAIMaxCompletionTokens(t *testing.T) {
	srv := fakeHosted(t, `[{"error": {"kind": "invalid_request", "message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."}},
	  {"repeat": true, "reply": [{"text": "Thought it over."}]}]`)
	a := hostedAsker(keys())
	for range 2 {
		reply, err := a.Chat(context.Background(), chatOf("Summarise.", 64,
			layer("o", `{"provider": "openai", "model": "o4-mini", "baseUrl": "`+srv.URL+`/v1"}`)), func(eventapi.Details) {})
		if err != nil || reply.Text != "Thought it over." {
			t.Fatalf("%+v, %v", reply, err)
		}
	}
	var asked []string
	for _, e := range srv.Log().Entries() {
		b := body(t, e)
		asked = append(asked, fmt.Sprint(b["max_tokens"], "/", b["max_completion_tokens"]))
	}
	if want := []string{"64/<nil>", "<nil>/64", "<nil>/64"}; !slices.Equal(asked, want) {
		t.Errorf("max_tokens/max_completion_tokens asked: %v, want %v", asked, want)
	}
}
