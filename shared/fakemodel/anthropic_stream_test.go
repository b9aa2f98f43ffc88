package fakemodel

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func readEvents(t *testing.T, body []byte) []SSEEvent {
	t.Helper()
	evs, err := ReadSSE(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("bad SSE: %v\n%s", err, body)
	}
	// Every event's data carries its own name as "type".
	for _, ev := range evs {
		if typ := decode(t, ev.Data)["type"]; typ != ev.Event {
			t.Errorf("event %q has data type %v", ev.Event, typ)
		}
	}
	return evs
}

func eventNames(evs []SSEEvent) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, ev.Event)
	}
	return out
}

func TestStreamingTextFollowsTheMessagesEventOrder(t *testing.T) {
	srv := startFake(t, `{"turns":[{"reply":[{"text":"Hello streaming world"}]}]}`, Options{})
	resp, body := post(t, srv.URL+"/v1/messages?beta=true", messagesBody("claude-fake-1", "hi", true))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" ||
		resp.Header.Get("Request-Id") != "req_fake_1" {
		t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
	}
	evs := readEvents(t, body)
	want := []string{"message_start", "content_block_start", "ping", "content_block_delta", "content_block_delta",
		"content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if got := eventNames(evs); !reflect.DeepEqual(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	start := decode(t, evs[0].Data)["message"].(map[string]any)
	if start["id"] != "msg_fake_1" || start["model"] != "claude-fake-1" || start["role"] != "assistant" ||
		start["stop_reason"] != nil || len(start["content"].([]any)) != 0 {
		t.Errorf("message_start = %v", start)
	}
	if u := start["usage"].(map[string]any); u["input_tokens"] != 100.0 || u["output_tokens"] != 1.0 {
		t.Errorf("message_start usage = %v", u)
	}
	block := decode(t, evs[1].Data)
	if block["index"] != 0.0 || !reflect.DeepEqual(block["content_block"], map[string]any{"type": "text", "text": ""}) {
		t.Errorf("content_block_start = %v", block)
	}
	var text strings.Builder
	for _, ev := range evs[3:6] {
		d := decode(t, ev.Data)
		delta := d["delta"].(map[string]any)
		if d["index"] != 0.0 || delta["type"] != "text_delta" {
			t.Errorf("delta = %v", d)
		}
		text.WriteString(delta["text"].(string))
	}
	if text.String() != "Hello streaming world" {
		t.Errorf("joined text = %q", text.String())
	}
	md := decode(t, evs[7].Data)
	if md["delta"].(map[string]any)["stop_reason"] != "end_turn" || md["usage"].(map[string]any)["output_tokens"] != 10.0 {
		t.Errorf("message_delta = %v", md)
	}
	if e := finished(t, srv, 1); e.Outcome != OutcomeCompleted || e.Status != 200 || e.Turn != 1 {
		t.Errorf("log entry = %+v", e)
	}
}

func TestStreamingThinkingTextAndToolUse(t *testing.T) {
	srv := startFake(t, `{"turns":[{"usage":{"inputTokens":7,"outputTokens":9,"cacheReadInputTokens":3},
	  "reply":[{"thinking":"let me see"},{"text":"ok"},
	           {"toolUse":{"name":"Bash","input":{"command":"echo héllo","description":"Print"}}}]}]}`, Options{})
	_, body := post(t, srv.URL+"/v1/messages", messagesBody("m", "[bash]", true))
	evs := readEvents(t, body)
	want := []string{"message_start",
		"content_block_start", "ping", "content_block_delta", "content_block_delta", "content_block_delta",
		"content_block_delta", "content_block_stop",
		"content_block_start", "content_block_delta", "content_block_stop",
		"content_block_start", "content_block_delta", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop"}
	if got := eventNames(evs); !reflect.DeepEqual(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	if u := decode(t, evs[0].Data)["message"].(map[string]any)["usage"].(map[string]any); u["input_tokens"] != 7.0 ||
		u["cache_read_input_tokens"] != 3.0 {
		t.Errorf("usage = %v", u)
	}
	thinking := decode(t, evs[1].Data)["content_block"]
	if !reflect.DeepEqual(thinking, map[string]any{"type": "thinking", "thinking": "", "signature": ""}) {
		t.Errorf("thinking start = %v", thinking)
	}
	var thought string
	for _, ev := range evs[3:6] {
		thought += decode(t, ev.Data)["delta"].(map[string]any)["thinking"].(string)
	}
	sig := decode(t, evs[6].Data)["delta"].(map[string]any)
	if thought != "let me see" || sig["type"] != "signature_delta" || sig["signature"] != "fakesig" {
		t.Errorf("thinking = %q, signature delta = %v", thought, sig)
	}
	tool := decode(t, evs[11].Data)
	if tool["index"] != 2.0 || !reflect.DeepEqual(tool["content_block"], map[string]any{
		"type": "tool_use", "id": "toolu_fake_1_2", "name": "Bash", "input": map[string]any{}}) {
		t.Errorf("tool_use start = %v", tool)
	}
	var partial string
	for _, ev := range evs[12:14] {
		d := decode(t, ev.Data)["delta"].(map[string]any)
		if d["type"] != "input_json_delta" {
			t.Errorf("tool delta = %v", d)
		}
		partial += d["partial_json"].(string)
	}
	if got := decode(t, partial); !reflect.DeepEqual(got, map[string]any{"command": "echo héllo", "description": "Print"}) {
		t.Errorf("joined partial_json = %s", partial)
	}
	md := decode(t, evs[15].Data)
	if md["delta"].(map[string]any)["stop_reason"] != "tool_use" || md["usage"].(map[string]any)["output_tokens"] != 9.0 {
		t.Errorf("message_delta = %v", md)
	}
}

func TestStructuredOutputIsAStructuredOutputToolCall(t *testing.T) {
	srv := startFake(t, `{"turns":[{"repeat":true,"reply":[{"structuredOutput":{"name":"Ada","age":36}}]}]}`, Options{})
	_, body := post(t, srv.URL+"/v1/messages", messagesBody("m", "[structured]", true))
	evs := readEvents(t, body)
	start := decode(t, evs[1].Data)["content_block"].(map[string]any)
	if start["type"] != "tool_use" || start["name"] != "StructuredOutput" {
		t.Errorf("start = %v", start)
	}
	var partial string
	for _, ev := range evs {
		if ev.Event == "content_block_delta" {
			partial += decode(t, ev.Data)["delta"].(map[string]any)["partial_json"].(string)
		}
	}
	if !reflect.DeepEqual(decode(t, partial), map[string]any{"name": "Ada", "age": 36.0}) {
		t.Errorf("input = %s", partial)
	}
	// Non-streaming: the same call as a complete block.
	_, body = post(t, srv.URL+"/v1/messages", messagesBody("m", "[structured]", false))
	msg := decode(t, string(body))
	content := msg["content"].([]any)[0].(map[string]any)
	if content["name"] != "StructuredOutput" || content["id"] != "toolu_fake_2_0" ||
		!reflect.DeepEqual(content["input"], map[string]any{"name": "Ada", "age": 36.0}) || msg["stop_reason"] != "tool_use" {
		t.Errorf("message = %v", msg)
	}
}

func TestNonStreamingMessage(t *testing.T) {
	srv := startFake(t, `{"turns":[{"stopReason":"max_tokens","reply":[{"thinking":"t","signature":"abc"},{"text":"Hi"},
	  {"toolUse":{"id":"toolu_given","name":"Read","input":{"file_path":"/x"}}}]}]}`, Options{})
	resp, body := post(t, srv.URL+"/v1/messages", messagesBody("claude-probe", "Hi", false))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d %v", resp.StatusCode, resp.Header)
	}
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"id": "msg_fake_1", "type": "message", "role": "assistant", "model": "claude-probe",
		"stop_reason": "max_tokens", "stop_sequence": nil,
		"content": []any{
			map[string]any{"type": "thinking", "thinking": "t", "signature": "abc"},
			map[string]any{"type": "text", "text": "Hi"},
			map[string]any{"type": "tool_use", "id": "toolu_given", "name": "Read", "input": map[string]any{"file_path": "/x"}},
		},
		"usage": map[string]any{"input_tokens": 100.0, "output_tokens": 10.0, "cache_creation_input_tokens": 0.0,
			"cache_read_input_tokens": 0.0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("message =\n%v\nwant\n%v", got, want)
	}
	if e := finished(t, srv, 1); e.Stream || e.Outcome != OutcomeCompleted {
		t.Errorf("entry = %+v", e)
	}
}

func TestCountTokens(t *testing.T) {
	srv := startFake(t, `{"countTokens":1234,"turns":[]}`, Options{})
	resp, body := post(t, srv.URL+"/v1/messages/count_tokens?beta=true", messagesBody("m", "count me", false))
	if resp.StatusCode != 200 || strings.TrimSpace(string(body)) != `{"input_tokens":1234}` {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if e := finished(t, srv, 1); e.Path != "/v1/messages/count_tokens" || e.Prompt != "count me" || e.Turn != 0 {
		t.Errorf("entry = %+v", e)
	}
}

func TestSSEWriterFramesMultilineData(t *testing.T) {
	var buf bytes.Buffer
	s := &sseWriter{w: &buf}
	if err := s.raw("", "a\nb"); err != nil {
		t.Fatal(err)
	}
	if err := s.raw("done", "[DONE]"); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "data: a\ndata: b\n\nevent: done\ndata: [DONE]\n\n" {
		t.Errorf("framed = %q", buf.String())
	}
	evs, err := ReadSSE(&buf)
	if err != nil || !reflect.DeepEqual(evs, []SSEEvent{{Data: "a\nb"}, {Event: "done", Data: "[DONE]"}}) {
		t.Errorf("read back = %+v, %v", evs, err)
	}
}

func TestReadSSE(t *testing.T) {
	evs, err := ReadSSE(strings.NewReader(": comment\r\nevent: x\r\ndata: 1\r\n\r\nid: 3\ndata:2\n\n\n"))
	if err != nil || !reflect.DeepEqual(evs, []SSEEvent{{Event: "x", Data: "1"}, {Data: "2"}}) {
		t.Errorf("got %+v, %v", evs, err)
	}
	if _, err := ReadSSE(strings.NewReader("event: x\ndata: 1\n")); err == nil {
		t.Error("a cut stream was accepted")
	}
}
