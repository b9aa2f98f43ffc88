package fakemodel

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// geminiBody builds a Gemini CLI-like request: the system instruction, the
// injected session context and the prompt, then extra entries.
func geminiBody(prompt string, extra ...any) string {
	contents := []any{map[string]any{"role": "user", "parts": []any{
		map[string]any{"text": "<session_context>\nThe date is today.\n</session_context>"}, map[string]any{"text": prompt}}}}
	contents = append(contents, extra...)
	b, _ := json.Marshal(map[string]any{"contents": contents,
		"systemInstruction": map[string]any{"role": "user", "parts": []any{map[string]any{"text": "You are the fake agent."}}},
		"tools":             []any{map[string]any{"functionDeclarations": []any{map[string]any{"name": "run_shell_command"}}}}})
	return string(b)
}

func TestGeminiStreamsTextAndEndsWithUsage(t *testing.T) {
	srv := startFake(t, `{"turns":[{"match":{"api":"gemini","marker":"[hi]"},"reply":[{"text":"Hello gemini world"}],"usage":{"inputTokens":120,"outputTokens":30}}]}`, Options{})
	resp, body := post(t, srv.URL+"/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", geminiBody("[hi] there"))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, headers %v: %s", resp.StatusCode, resp.Header, body)
	}
	evs, err := ReadSSE(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	var last map[string]any
	for _, ev := range evs {
		last = decode(t, ev.Data)
		for _, p := range last["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any) {
			text.WriteString(p.(map[string]any)["text"].(string))
		}
	}
	if text.String() != "Hello gemini world" {
		t.Errorf("streamed text %q", text.String())
	}
	if u := last["usageMetadata"].(map[string]any); u["promptTokenCount"] != 120.0 || u["candidatesTokenCount"] != 30.0 {
		t.Errorf("usage %v", u)
	}
	if fr := last["candidates"].([]any)[0].(map[string]any)["finishReason"]; fr != "STOP" {
		t.Errorf("finish reason %v", fr)
	}
	e := srv.Log().Entries()[0]
	if e.API != APIGemini || e.Model != "gemini-2.5-flash" || e.Prompt != "[hi] there" || len(e.System) != 1 || e.Tools[0] != "run_shell_command" {
		t.Errorf("logged facts %+v", e.Facts)
	}
}

func TestGeminiCallsAFunctionAndReadsItsResponse(t *testing.T) {
	srv := startFake(t, `{"turns":[{"match":{"marker":"[run]"},"reply":[{"toolUse":{"name":"run_shell_command","input":{"command":"echo hi"}}}]},
		{"match":{"marker":"[run]"},"reply":[{"text":"done"}]}]}`, Options{})
	_, body := post(t, srv.URL+"/v1beta/models/gemini-2.5-flash:generateContent", geminiBody("[run] go"))
	call := decode(t, string(body))["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)["functionCall"].(map[string]any)
	if call["name"] != "run_shell_command" || call["args"].(map[string]any)["command"] != "echo hi" || call["id"] == "" {
		t.Fatalf("function call %v", call)
	}
	post(t, srv.URL+"/v1beta/models/gemini-2.5-flash:generateContent", geminiBody("[run] go",
		map[string]any{"role": "model", "parts": []any{map[string]any{"functionCall": call}}},
		map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{"id": call["id"], "name": "run_shell_command",
			"response": map[string]any{"error": "exit code 3: boom"}}}}}))
	e := srv.Log().Entries()[1]
	if e.Prompt != "[run] go" || len(e.ToolResults) != 1 || !e.ToolResults[0].IsError || e.ToolResults[0].Content != "exit code 3: boom" {
		t.Errorf("second request's facts %+v", e.Facts)
	}
}

func TestGeminiModelNotFoundIsTheAPIsError(t *testing.T) {
	srv := startFake(t, `{"turns":[{"match":{"marker":"[gone]"},"error":{"kind":"not_found"}}]}`, Options{})
	resp, body := post(t, srv.URL+"/v1beta/models/gemini-nope:streamGenerateContent?alt=sse", geminiBody("[gone]"))
	e := decode(t, string(body))["error"].(map[string]any)
	if resp.StatusCode != 404 || e["status"] != "NOT_FOUND" || !strings.Contains(e["message"].(string), "models/gemini-nope") {
		t.Errorf("status %d, error %v", resp.StatusCode, e)
	}
}
