package fakemodel

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// chatBody builds an OpenCode-like Chat Completions request: one system
// message, the prompt, then extra messages (tool calls and results).
func chatBody(model, prompt string, stream bool, extra ...any) string {
	msgs := []any{
		map[string]any{"role": "system", "content": "You are the fake agent."},
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": prompt}}},
	}
	msgs = append(msgs, extra...)
	b, _ := json.Marshal(map[string]any{"model": model, "stream": stream, "messages": msgs,
		"stream_options": map[string]any{"include_usage": true}, "tool_choice": "auto",
		"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "bash"}},
			map[string]any{"type": "function", "function": map[string]any{"name": "calc_add"}}}})
	return string(b)
}

// chatChunks reads a Chat Completions stream: data-only events, the last
// one "[DONE]" (returned separately).
func chatChunks(t *testing.T, body []byte) ([]map[string]any, string) {
	t.Helper()
	evs, err := ReadSSE(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("bad SSE: %v\n%s", err, body)
	}
	var out []map[string]any
	last := ""
	for i, ev := range evs {
		if ev.Event != "" {
			t.Errorf("event %d has a name %q; Chat Completions streams are data-only", i, ev.Event)
		}
		if ev.Data == "[DONE]" {
			last = ev.Data
			continue
		}
		out = append(out, decode(t, ev.Data))
	}
	return out, last
}

func delta(c map[string]any) map[string]any {
	return c["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any)
}

func TestChatStreamsTextAsDataOnlyChunksEndedByDone(t *testing.T) {
	srv := startFake(t, `{"turns":[{"match":{"api":"chat"},"reply":[{"thinking":"think first"},{"text":"Hello chat world"}],
		"usage":{"inputTokens":120,"outputTokens":30,"cacheReadInputTokens":20}}]}`, Options{})
	resp, body := post(t, srv.URL+"/v1/chat/completions", chatBody("fake-model", "hi", true))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
	}
	chunks, done := chatChunks(t, body)
	if done != "[DONE]" {
		t.Fatalf("the stream did not end with [DONE]")
	}
	if delta(chunks[0])["role"] != "assistant" {
		t.Errorf("first chunk %v, want the assistant role", chunks[0])
	}
	var text, reasoning strings.Builder
	for _, c := range chunks[1 : len(chunks)-2] {
		d := delta(c)
		if s, ok := d["content"].(string); ok {
			text.WriteString(s)
		}
		if s, ok := d["reasoning_content"].(string); ok {
			reasoning.WriteString(s)
		}
	}
	if text.String() != "Hello chat world" || reasoning.String() != "think first" {
		t.Errorf("text %q, reasoning %q", text.String(), reasoning.String())
	}
	fin := chunks[len(chunks)-2]["choices"].([]any)[0].(map[string]any)["finish_reason"]
	if fin != "stop" {
		t.Errorf("finish_reason %v, want stop", fin)
	}
	usage := chunks[len(chunks)-1]
	if len(usage["choices"].([]any)) != 0 {
		t.Errorf("the usage chunk has choices: %v", usage)
	}
	u := usage["usage"].(map[string]any)
	if u["prompt_tokens"] != 120.0 || u["completion_tokens"] != 30.0 ||
		u["prompt_tokens_details"].(map[string]any)["cached_tokens"] != 20.0 {
		t.Errorf("usage %v", u)
	}
	e := finished(t, srv, 1)
	if e.API != APIChat || e.Outcome != OutcomeCompleted || e.Turn != 1 || e.Prompt != "hi" ||
		!reflect.DeepEqual(e.System, []string{"You are the fake agent."}) || !reflect.DeepEqual(e.Tools, []string{"bash", "calc_add"}) {
		t.Errorf("log entry %+v", e)
	}
}

func TestChatStreamsToolCallsWithTheirArgumentsInPieces(t *testing.T) {
	srv := startFake(t, `{"turns":[{"reply":[{"toolUse":{"id":"call_a","name":"bash","input":{"command":"echo hi"}}},
		{"structuredOutput":{"answer":"yes"}}]}]}`, Options{})
	_, body := post(t, srv.URL+"/v1/chat/completions", chatBody("fake-model", "run it", true))
	chunks, _ := chatChunks(t, body)
	type call struct{ id, name, args string }
	calls := map[float64]*call{}
	for _, c := range chunks {
		if len(c["choices"].([]any)) == 0 {
			continue
		}
		tcs, _ := delta(c)["tool_calls"].([]any)
		for _, raw := range tcs {
			tc := raw.(map[string]any)
			i := tc["index"].(float64)
			if calls[i] == nil {
				calls[i] = &call{}
			}
			if id, ok := tc["id"].(string); ok {
				calls[i].id = id
			}
			fn := tc["function"].(map[string]any)
			if n, ok := fn["name"].(string); ok {
				calls[i].name = n
			}
			calls[i].args += fn["arguments"].(string)
		}
	}
	if len(calls) != 2 || *calls[0] != (call{"call_a", "bash", `{"command":"echo hi"}`}) ||
		calls[1].name != "StructuredOutput" || calls[1].args != `{"answer":"yes"}` || calls[1].id != "call_fake_1_1" {
		t.Fatalf("tool calls %+v %+v", calls[0], calls[1])
	}
	fin := chunks[len(chunks)-2]["choices"].([]any)[0].(map[string]any)["finish_reason"]
	if fin != "tool_calls" {
		t.Errorf("finish_reason %v, want tool_calls", fin)
	}
}

func TestChatReadsTheTrailingToolResults(t *testing.T) {
	srv := startFake(t, `{"turns":[{"reply":[{"text":"done"}]}]}`, Options{})
	call := map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "call_a", "type": "function",
		"function": map[string]any{"name": "bash", "arguments": `{"command":"echo hi"}`}}}}
	result := map[string]any{"role": "tool", "tool_call_id": "call_a", "content": "hi\n"}
	_, body := post(t, srv.URL+"/v1/chat/completions", chatBody("fake-model", "run it", false, call, result))
	c := decode(t, string(body))
	msg := c["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
	if msg["content"] != "done" || c["object"] != "chat.completion" {
		t.Errorf("non-streaming answer %v", c)
	}
	e := finished(t, srv, 1)
	if e.Prompt != "run it" || e.Messages != 4 || len(e.ToolResults) != 1 || e.ToolResults[0] != (ToolResult{ToolUseID: "call_a", Content: "hi\n"}) {
		t.Errorf("facts %+v", e.Facts)
	}
}

func TestChatErrorsUseTheOpenAIShape(t *testing.T) {
	for _, tc := range []struct {
		kind   string
		status int
		code   string
	}{{"not_found", 404, "model_not_found"}, {"authentication", 401, "invalid_api_key"}, {"rate_limit", 429, "rate_limit_exceeded"}} {
		t.Run(tc.kind, func(t *testing.T) {
			srv := startFake(t, `{"turns":[{"error":{"kind":"`+tc.kind+`"}}]}`, Options{})
			resp, body := post(t, srv.URL+"/v1/chat/completions", chatBody("nope-model", "hi", true))
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			e := decode(t, string(body))["error"].(map[string]any)
			if e["code"] != tc.code || e["message"] == "" {
				t.Errorf("error body %v", e)
			}
			if tc.kind == "not_found" && !strings.Contains(e["message"].(string), "nope-model") {
				t.Errorf("the not-found message does not name the model: %v", e["message"])
			}
			if tc.kind == "rate_limit" && resp.Header.Get("Retry-After") != "1" {
				t.Errorf("retry-after %q", resp.Header.Get("Retry-After"))
			}
			if got := finished(t, srv, 1); got.Outcome != OutcomeError || got.Status != tc.status {
				t.Errorf("logged %s %d", got.Outcome, got.Status)
			}
		})
	}
}

func TestChatMidStreamErrorIsAnErrorChunkWithoutDone(t *testing.T) {
	srv := startFake(t, `{"turns":[{"error":{"kind":"api_error","midStream":true}}]}`, Options{})
	resp, body := post(t, srv.URL+"/v1/chat/completions", chatBody("fake-model", "hi", true))
	chunks, done := chatChunks(t, body)
	if resp.StatusCode != 200 || done != "" || len(chunks) != 2 || chunks[1]["error"] == nil {
		t.Fatalf("status %d, chunks %v, done %q", resp.StatusCode, chunks, done)
	}
}

func TestChatRejectsABodyWithoutMessages(t *testing.T) {
	srv := startFake(t, `{"turns":[{"reply":[{"text":"x"}]}]}`, Options{})
	resp, body := post(t, srv.URL+"/v1/chat/completions", `{"model":"m","messages":[]}`)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "messages") {
		t.Fatalf("status %d, body %s", resp.StatusCode, body)
	}
	if len(srv.UnusedTurns()) != 1 {
		t.Errorf("a bad request used a turn")
	}
}

// A user message's <system-reminder> parts (Qwen Code's context, before
// the prompt in the same message) are not its prompt.
func TestChatPromptLeavesOutSystemReminders(t *testing.T) {
	_, f, err := parseChat([]byte(`{"model":"m","messages":[{"role":"user","content":[
	  {"type":"text","text":"<system-reminder>skills</system-reminder>"},
	  {"type":"text","text":"[qwen] say hi"}]}]}`))
	if err != nil || f.Prompt != "[qwen] say hi" {
		t.Fatalf("prompt %q, err %v; want the prompt part only", f.Prompt, err)
	}
	_, f, _ = parseChat([]byte(`{"model":"m","messages":[{"role":"user","content":"plain <system-reminder>x</system-reminder>"}]}`))
	if f.Prompt != "plain <system-reminder>x</system-reminder>" {
		t.Errorf("a string content %q", f.Prompt)
	}
}
