package fakemodel

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// responsesBody builds a Codex-like Responses request: developer
// instructions, the injected environment context, then the prompt.
func responsesBody(model, prompt string, extra ...any) string {
	input := []any{
		map[string]any{"type": "message", "role": "developer", "content": []any{map[string]any{"type": "input_text", "text": "You are terse."}}},
		map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "<environment_context>cwd</environment_context>"}}},
		map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": prompt}}},
	}
	input = append(input, extra...)
	b, _ := json.Marshal(map[string]any{"model": model, "stream": true, "input": input,
		"tools": []any{
			map[string]any{"type": "function", "name": "exec_command"},
			map[string]any{"type": "namespace", "name": "mcp__stratos", "tools": []any{map[string]any{"type": "function", "name": "echo_tool"}}},
			map[string]any{"type": "web_search"},
		}})
	return string(b)
}

func TestResponsesStreamsTextInTheResponsesEventOrder(t *testing.T) {
	srv := startFake(t, `{"turns":[{"match":{"api":"responses"},"reply":[{"thinking":"plan it"},{"text":"Hello streaming world"}],
		"usage":{"inputTokens":120,"outputTokens":30,"cacheReadInputTokens":20,"reasoningTokens":8}}]}`, Options{})
	resp, body := post(t, srv.URL+"/v1/responses", responsesBody("gpt-fake", "hi"))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
	}
	evs := readEvents(t, body)
	want := []string{"response.created",
		"response.output_item.added", "response.reasoning_summary_part.added", "response.reasoning_summary_text.delta",
		"response.reasoning_summary_text.delta", "response.output_item.done",
		"response.output_item.added", "response.output_text.delta", "response.output_text.delta",
		"response.output_text.delta", "response.output_item.done", "response.completed"}
	if got := eventNames(evs); !reflect.DeepEqual(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	var text strings.Builder
	for _, ev := range evs[7:10] {
		text.WriteString(decode(t, ev.Data)["delta"].(string))
	}
	if text.String() != "Hello streaming world" {
		t.Errorf("text deltas join to %q", text.String())
	}
	done := decode(t, evs[10].Data)["item"].(map[string]any)
	if done["role"] != "assistant" || done["content"].([]any)[0].(map[string]any)["text"] != "Hello streaming world" {
		t.Errorf("message item = %v", done)
	}
	completed := decode(t, evs[11].Data)["response"].(map[string]any)
	u := completed["usage"].(map[string]any)
	if u["input_tokens"] != 120.0 || u["output_tokens"] != 30.0 ||
		u["input_tokens_details"].(map[string]any)["cached_tokens"] != 20.0 ||
		u["output_tokens_details"].(map[string]any)["reasoning_tokens"] != 8.0 {
		t.Errorf("usage = %v", u)
	}
}

func TestResponsesFunctionCallsCarryArgumentsAndNamespace(t *testing.T) {
	srv := startFake(t, `{"turns":[{"reply":[
		{"toolUse":{"name":"exec_command","input":{"cmd":"echo hi"}}},
		{"toolUse":{"id":"call_9","namespace":"mcp__stratos","name":"echo_tool","input":{"text":"x"}}}]}]}`, Options{})
	_, body := post(t, srv.URL+"/v1/responses", responsesBody("gpt-fake", "run"))
	evs := readEvents(t, body)
	var calls []map[string]any
	var args strings.Builder
	for _, ev := range evs {
		d := decode(t, ev.Data)
		switch ev.Event {
		case "response.output_item.done":
			calls = append(calls, d["item"].(map[string]any))
		case "response.function_call_arguments.delta":
			if d["output_index"] == 0.0 {
				args.WriteString(d["delta"].(string))
			}
		}
	}
	if len(calls) != 2 {
		t.Fatalf("items = %v", calls)
	}
	if c := calls[0]; c["type"] != "function_call" || c["name"] != "exec_command" || c["call_id"] != "call_fake_1_0" ||
		c["arguments"] != `{"cmd":"echo hi"}` || c["namespace"] != nil {
		t.Errorf("shell call = %v", c)
	}
	if args.String() != `{"cmd":"echo hi"}` {
		t.Errorf("argument deltas join to %q", args.String())
	}
	if c := calls[1]; c["namespace"] != "mcp__stratos" || c["name"] != "echo_tool" || c["call_id"] != "call_9" {
		t.Errorf("MCP call = %v", c)
	}
}

func TestResponsesStructuredOutputIsTheMessageText(t *testing.T) {
	srv := startFake(t, `{"turns":[{"reply":[{"structuredOutput":{"answer": "42", "n": 1}}]}]}`, Options{})
	_, body := post(t, srv.URL+"/v1/responses", responsesBody("gpt-fake", "json please"))
	evs := readEvents(t, body)
	item := decode(t, evs[len(evs)-2].Data)["item"].(map[string]any)
	if got := item["content"].([]any)[0].(map[string]any)["text"]; got != `{"answer":"42","n":1}` {
		t.Errorf("structured text = %v", got)
	}
}

func TestResponsesFactsSkipInjectedContextAndReadToolOutputs(t *testing.T) {
	srv := startFake(t, `{"turns":[{"repeat":true,"reply":[{"text":"ok"}]}]}`, Options{})
	post(t, srv.URL+"/v1/responses", responsesBody("gpt-fake", "[run] go",
		map[string]any{"type": "function_call", "call_id": "call_1", "name": "exec_command", "arguments": "{}"},
		map[string]any{"type": "function_call_output", "call_id": "call_1", "output": "Output:\nhi\n"},
		map[string]any{"type": "function_call", "call_id": "call_2", "namespace": "mcp__stratos", "name": "echo_tool", "arguments": "{}"},
		map[string]any{"type": "function_call_output", "call_id": "call_2", "output": []any{
			map[string]any{"type": "input_text", "text": "Wall time: 0s"}, map[string]any{"type": "input_text", "text": "echo: x"}}},
	))
	e := finished(t, srv, 1)
	if e.API != APIResponses || e.Model != "gpt-fake" || !e.Stream || e.Prompt != "[run] go" || e.Messages != 7 {
		t.Errorf("entry = %+v", e)
	}
	if !reflect.DeepEqual(e.System, []string{"You are terse."}) {
		t.Errorf("system = %q", e.System)
	}
	if want := []string{"exec_command", "mcp__stratos/echo_tool", "web_search"}; !reflect.DeepEqual(e.Tools, want) {
		t.Errorf("tools = %v, want %v", e.Tools, want)
	}
	want := []ToolResult{{ToolUseID: "call_2", Content: "Wall time: 0s\necho: x"}}
	if !reflect.DeepEqual(e.ToolResults, want) {
		t.Errorf("tool results = %+v, want %+v", e.ToolResults, want)
	}
}

func TestResponsesErrorsUseTheOpenAIShape(t *testing.T) {
	srv := startFake(t, `{"turns":[
		{"match":{"marker":"[missing]"},"error":{"kind":"not_found"}},
		{"match":{"marker":"[auth]"},"error":{"kind":"authentication"}},
		{"match":{"marker":"[mid]"},"error":{"kind":"not_found","midStream":true}}]}`, Options{})
	resp, body := post(t, srv.URL+"/v1/responses", responsesBody("gpt-gone", "[missing]"))
	e := decode(t, string(body))["error"].(map[string]any)
	if resp.StatusCode != 404 || e["code"] != "model_not_found" || !strings.Contains(e["message"].(string), "`gpt-gone`") {
		t.Errorf("not_found: %d %v", resp.StatusCode, e)
	}
	resp, body = post(t, srv.URL+"/v1/responses", responsesBody("gpt-fake", "[auth]"))
	if e := decode(t, string(body))["error"].(map[string]any); resp.StatusCode != 401 || e["code"] != "invalid_api_key" {
		t.Errorf("authentication: %d %v", resp.StatusCode, e)
	}
	resp, body = post(t, srv.URL+"/v1/responses", responsesBody("gpt-gone", "[mid]"))
	evs := readEvents(t, body)
	if resp.StatusCode != 200 || !reflect.DeepEqual(eventNames(evs), []string{"response.created", "response.failed"}) {
		t.Fatalf("mid-stream: %d %v", resp.StatusCode, eventNames(evs))
	}
	failed := decode(t, evs[1].Data)["response"].(map[string]any)
	if failed["status"] != "failed" || failed["error"].(map[string]any)["code"] != "model_not_found" {
		t.Errorf("response.failed = %v", failed)
	}
	if o := finished(t, srv, 3).Outcome; o != OutcomeError {
		t.Errorf("mid-stream outcome = %s", o)
	}
}

func TestResponsesAzurePathKeepsItsQueryInTheLog(t *testing.T) {
	srv := startFake(t, `{"turns":[{"match":{"api":"responses"},"reply":[{"text":"from azure"}]}]}`, Options{})
	resp, _ := post(t, srv.URL+"/openai/responses?api-version=2025-04-01-preview", responsesBody("gpt-fake", "hi"))
	e := finished(t, srv, 1)
	if resp.StatusCode != 200 || e.Path != "/openai/responses" || e.Query != "api-version=2025-04-01-preview" || e.Turn != 1 {
		t.Errorf("status %d, entry %+v", resp.StatusCode, e)
	}
}

func TestResponsesTurnsDoNotAnswerAnthropicRequests(t *testing.T) {
	srv := startFake(t, `{"turns":[{"match":{"api":"responses"},"reply":[{"text":"openai only"}]}]}`, Options{})
	resp, _ := post(t, srv.URL+"/v1/messages", messagesBody("claude-fake-1", "hi", false))
	if resp.StatusCode != 400 || finished(t, srv, 1).Outcome != OutcomeUnmatched {
		t.Errorf("an Anthropic request took a responses turn: %d", resp.StatusCode)
	}
}

func TestResponsesRejectsABodyWithoutInput(t *testing.T) {
	srv := startFake(t, `{"turns":[{"reply":[{"text":"x"}]}]}`, Options{})
	resp, body := post(t, srv.URL+"/v1/responses", `{"model":"m","stream":true}`)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "input: field required") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}

func TestResponsesDelayEndsWhenTheClientGoes(t *testing.T) {
	srv := startFake(t, `{"turns":[{"delay":"1h","reply":[{"text":"late"}]}]}`, Options{})
	c := &clientWithHeaders{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := c.post(srv.URL+"/v1/responses", strings.NewReader(responsesBody("m", "slow")))
		if err == nil {
			resp.Body.Close()
		}
	}()
	entry(t, srv, 1)
	srv.Fake.Close()
	<-done
	if o := finished(t, srv, 1).Outcome; o != OutcomeServerClose {
		t.Errorf("outcome = %s", o)
	}
}

func TestResponsesCustomToolCallsCarryTheirTextInput(t *testing.T) {
	srv := startFake(t, `{"turns":[{"reply":[{"customToolCall":{"name":"apply_patch","input":"*** Begin Patch\n*** End Patch\n"}}]}]}`, Options{})
	_, body := post(t, srv.URL+"/v1/responses", responsesBody("gpt-fake", "patch"))
	evs := readEvents(t, body)
	item := decode(t, evs[len(evs)-2].Data)["item"].(map[string]any)
	if item["type"] != "custom_tool_call" || item["name"] != "apply_patch" || item["call_id"] != "call_fake_1_0" ||
		item["input"] != "*** Begin Patch\n*** End Patch\n" {
		t.Errorf("item = %v", item)
	}
}
