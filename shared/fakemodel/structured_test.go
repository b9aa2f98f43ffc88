package fakemodel

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

const structuredScript = `{"turns": [
  {"match": {"api": "chat", "marker": "[color]"}, "reply": [{"structuredOutput": {"answer": "red"}}],
   "tokenLogprobs": {"red": -0.25}, "usage": {"inputTokens": 12, "outputTokens": 3}},
  {"match": {"api": "chat", "marker": "[tool]"}, "reply": [{"structuredOutput": {"answer": "red"}}]},
  {"match": {"api": "anthropic", "marker": "[color]"}, "reply": [{"structuredOutput": {"answer": "blue"}}]},
  {"match": {"api": "anthropic", "marker": "[plain]"}, "reply": [{"structuredOutput": {"answer": "blue"}}]}
]}`

const answerSchema = `{"type":"object","properties":{"answer":{"type":"string","enum":["red","blue"]}},"required":["answer"]}`

// A Chat Completions request with response_format json_schema gets a
// structuredOutput block as the message's content, and with logprobs the
// content's tokens with the scripted log-probabilities; the log keeps the
// schema.
func TestChatJSONSchemaContentWithLogprobs(t *testing.T) {
	srv := startFake(t, structuredScript, Options{})
	resp, body := post(t, srv.URL+"/v1/chat/completions", `{"model": "gpt-fake", "logprobs": true,
	  "response_format": {"type": "json_schema", "json_schema": {"name": "answer", "strict": true, "schema": `+answerSchema+`}},
	  "messages": [{"role": "user", "content": "Which one? [color]"}]}`)
	if resp.StatusCode != 200 {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
	var got struct {
		Choices []struct {
			Message struct {
				Content   string `json:"content"`
				ToolCalls []any  `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
			Logprobs     struct {
				Content []struct {
					Token   string  `json:"token"`
					Logprob float64 `json:"logprob"`
				} `json:"content"`
			} `json:"logprobs"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	c := got.Choices[0]
	if c.Message.Content != `{"answer":"red"}` || c.Message.ToolCalls != nil || c.FinishReason != "stop" {
		t.Errorf("reply = %s", body)
	}
	var toks []string
	for _, lp := range c.Logprobs.Content {
		toks = append(toks, lp.Token)
		if want := map[bool]float64{true: -0.25}[lp.Token == "red"]; lp.Logprob != want {
			t.Errorf("token %q logprob %v, want %v", lp.Token, lp.Logprob, want)
		}
	}
	if strings.Join(toks, "|") != `{|"|answer|"|:|"|red|"|}` {
		t.Errorf("tokens %q", toks)
	}
	if e := finished(t, srv, 1); string(e.Schema) != answerSchema {
		t.Errorf("schema = %s", e.Schema)
	}
}

// Without response_format json_schema (or when a StructuredOutput tool is
// offered, as OpenCode does), structuredOutput stays a StructuredOutput
// tool call, and no logprobs are sent unasked.
func TestChatStructuredOutputStaysAToolCallWithoutJSONSchema(t *testing.T) {
	srv := startFake(t, structuredScript, Options{})
	_, body := post(t, srv.URL+"/v1/chat/completions", `{"model": "gpt-fake",
	  "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}},
	  "tools": [{"type": "function", "function": {"name": "StructuredOutput"}}],
	  "messages": [{"role": "user", "content": "[tool]"}]}`)
	if !strings.Contains(string(body), `"name":"StructuredOutput"`) || strings.Contains(string(body), `"logprobs"`) {
		t.Errorf("reply = %s", body)
	}
}

// An Anthropic request that forces a tool with tool_choice gets a
// structuredOutput block as a call of that tool; the log keeps the tool's
// input schema. Without a forced tool it is Claude Code's StructuredOutput.
func TestAnthropicForcedToolAnswersStructuredOutput(t *testing.T) {
	srv := startFake(t, structuredScript, Options{})
	_, body := post(t, srv.URL+"/v1/messages", `{"model": "claude-fake", "max_tokens": 100,
	  "tools": [{"name": "answer", "input_schema": `+answerSchema+`}], "tool_choice": {"type": "tool", "name": "answer"},
	  "messages": [{"role": "user", "content": "Which one? [color]"}]}`)
	got := decode(t, string(body))
	block := got["content"].([]any)[0].(map[string]any)
	if block["type"] != "tool_use" || block["name"] != "answer" || block["input"].(map[string]any)["answer"] != "blue" {
		t.Errorf("reply = %s", body)
	}
	if e := finished(t, srv, 1); string(e.Schema) != answerSchema {
		t.Errorf("schema = %s", e.Schema)
	}
	_, body = post(t, srv.URL+"/v1/messages", `{"model": "claude-fake", "max_tokens": 100, "messages": [{"role": "user", "content": "[plain]"}]}`)
	if !strings.Contains(string(body), `"name":"StructuredOutput"`) {
		t.Errorf("reply = %s", body)
	}
}

// A log-probability above 0 is not one.
func TestScriptRejectsPositiveLogprobs(t *testing.T) {
	_, err := ParseScript([]byte(`{"turns": [{"reply": [{"text": "x"}], "tokenLogprobs": {"x": 0.5}}]}`))
	if err == nil || !strings.Contains(err.Error(), `turns[0]: tokenLogprobs["x"]`) {
		t.Errorf("err = %v", err)
	}
}

func get(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// A script's models are the hosted model list: listed at /v1/models and
// /models, each at /v1/models/{id}, anything else 404; a script without
// models serves no list.
func TestHostedModelList(t *testing.T) {
	srv := startFake(t, `{"models": ["gpt-4.1-mini", "claude-haiku-4-5"], "turns": []}`, Options{})
	for _, path := range []string{"/v1/models", "/models"} {
		resp, body := get(t, srv.URL+path)
		if resp.StatusCode != 200 || !strings.Contains(string(body), `"id":"gpt-4.1-mini"`) || !strings.Contains(string(body), `"id":"claude-haiku-4-5"`) {
			t.Errorf("%s: %d %s", path, resp.StatusCode, body)
		}
	}
	resp, body := get(t, srv.URL+"/v1/models/claude-haiku-4-5")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"type":"model"`) {
		t.Errorf("one model: %d %s", resp.StatusCode, body)
	}
	if resp, body := get(t, srv.URL+"/v1/models/gpt-9"); resp.StatusCode != 404 || !strings.Contains(string(body), "gpt-9") {
		t.Errorf("a model not listed: %d %s", resp.StatusCode, body)
	}
	if e := finished(t, srv, 4); e.API != APIModels || e.Model != "gpt-9" || e.Outcome != OutcomeError {
		t.Errorf("entry %+v", e)
	}
	plain := startFake(t, `{"turns": []}`, Options{})
	if resp, _ := get(t, plain.URL+"/v1/models"); resp.StatusCode != 404 {
		t.Errorf("a script without models serves a list: %d", resp.StatusCode)
	}
}
