package fakemodel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const ollamaChatScript = `{
  "ollama": {"models": [{"name": "qwen3:8b"}, {"name": "tiny:1b", "capabilities": ["completion"]}]},
  "turns": [
    {"match": {"api": "ollama-chat", "marker": "[color]"}, "reply": [{"structuredOutput": {"answer": "red"}}], "usage": {"inputTokens": 42, "outputTokens": 7}},
    {"match": {"marker": "[stream]"}, "reply": [{"thinking": "hmm"}, {"text": "one two three"}]},
    {"match": {"marker": "[busy]"}, "error": {"kind": "api_error", "message": "server busy"}},
    {"match": {"marker": "[mid]"}, "error": {"kind": "api_error", "message": "ran out of memory", "midStream": true}}
  ]
}`

func ollamaChatBody(model, prompt string, stream bool, format string) string {
	b, _ := json.Marshal(map[string]any{"model": model, "stream": stream, "format": json.RawMessage(format),
		"messages": []any{map[string]any{"role": "system", "content": "Answer in JSON."}, map[string]any{"role": "user", "content": prompt}}})
	return string(b)
}

// A non-streaming request gets one JSON object: a structuredOutput block
// is the message content as JSON, the usage is in Ollama's counts, and
// the log keeps the format the request asked for.
func TestOllamaChatStructuredOutput(t *testing.T) {
	srv := startFake(t, ollamaChatScript, Options{})
	format := `{"type":"object","properties":{"answer":{"type":"string","enum":["red","blue"]}},"required":["answer"]}`
	resp, body := post(t, srv.URL+"/api/chat", ollamaChatBody("qwen3:8b", "Which one? [color]", false, format))
	if resp.StatusCode != 200 {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
	got := decode(t, string(body))
	msg := got["message"].(map[string]any)
	if msg["role"] != "assistant" || msg["content"] != `{"answer":"red"}` || got["done"] != true || got["done_reason"] != "stop" {
		t.Errorf("reply = %s", body)
	}
	if got["prompt_eval_count"] != float64(42) || got["eval_count"] != float64(7) {
		t.Errorf("counts = %v, %v", got["prompt_eval_count"], got["eval_count"])
	}
	e := finished(t, srv, 1)
	if e.API != APIOllamaChat || e.Turn != 1 || e.Stream || e.Prompt != "Which one? [color]" || len(e.System) != 1 || e.System[0] != "Answer in JSON." {
		t.Errorf("entry = %+v", e)
	}
	if !strings.Contains(string(e.Schema), `"enum":["red","blue"]`) {
		t.Errorf("schema = %s", e.Schema)
	}
	var summary strings.Builder
	if err := WriteSummary(&summary, srv.Log().Entries()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary.String(), "  schema: "+format+"\n") {
		t.Errorf("summary without the schema:\n%s", summary.String())
	}
}

// Without "stream": false, Ollama streams NDJSON: content chunks, then a
// done chunk with the counts.
func TestOllamaChatStreams(t *testing.T) {
	srv := startFake(t, ollamaChatScript, Options{})
	body := `{"model": "qwen3", "messages": [{"role": "user", "content": "[stream] go"}]}`
	// "qwen3" is not installed (no tag means :latest): refused without a turn.
	if resp, b := post(t, srv.URL+"/api/chat", body); resp.StatusCode != 404 || !strings.Contains(string(b), `"error":"model 'qwen3' not found"`) {
		t.Fatalf("missing model: %d %s", resp.StatusCode, b)
	}
	resp, b := post(t, srv.URL+"/api/chat", strings.Replace(body, `"qwen3"`, `"tiny:1b"`, 1))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("got %d %s", resp.StatusCode, b)
	}
	var content strings.Builder
	var last map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		last = decode(t, sc.Text())
		content.WriteString(last["message"].(map[string]any)["content"].(string))
	}
	if content.String() != "one two three" || last["done"] != true || last["eval_count"] != float64(10) {
		t.Errorf("stream %q, last chunk %v", content.String(), last)
	}
	if e := finished(t, srv, 2); !e.Stream || e.Turn != 2 || e.Outcome != OutcomeCompleted {
		t.Errorf("entry = %+v", e)
	}
}

func TestOllamaChatErrors(t *testing.T) {
	srv := startFake(t, ollamaChatScript, Options{})
	resp, b := post(t, srv.URL+"/api/chat", ollamaChatBody("qwen3:8b", "[busy]", false, `"json"`))
	if resp.StatusCode != 500 || string(b) != `{"error":"server busy"}` {
		t.Errorf("scripted error: %d %s", resp.StatusCode, b)
	}
	resp, b = post(t, srv.URL+"/api/chat", ollamaChatBody("qwen3:8b", "[mid]", true, `"json"`))
	if resp.StatusCode != 200 || strings.TrimSpace(string(b)) != `{"error":"ran out of memory"}` {
		t.Errorf("mid-stream error: %d %s", resp.StatusCode, b)
	}
	resp, b = post(t, srv.URL+"/api/chat", ollamaChatBody("qwen3:8b", "nothing matches", false, `"json"`))
	if resp.StatusCode != 400 || !strings.Contains(string(b), "no scripted turn left") {
		t.Errorf("unmatched: %d %s", resp.StatusCode, b)
	}
	if resp, b := post(t, srv.URL+"/api/chat", `{"messages": []}`); resp.StatusCode != 400 || !strings.Contains(string(b), "model is required") {
		t.Errorf("no model: %d %s", resp.StatusCode, b)
	}
	outcomes := []string{}
	for _, e := range srv.Log().Entries() {
		outcomes = append(outcomes, e.Outcome)
	}
	if strings.Join(outcomes, " ") != "error error unmatched error" {
		t.Errorf("outcomes %v", outcomes)
	}
}

// A turn matched by api "ollama-chat" answers /api/chat only.
func TestOllamaChatMatchesItsAPI(t *testing.T) {
	srv := startFake(t, ollamaChatScript, Options{})
	chat := `{"model": "qwen3:8b", "messages": [{"role": "user", "content": "[color]"}]}`
	if resp, b := post(t, srv.URL+"/v1/chat/completions", chat); resp.StatusCode != 400 || !strings.Contains(string(b), "no scripted turn left") {
		t.Errorf("Chat Completions took the ollama-chat turn: %d %s", resp.StatusCode, b)
	}
	if _, err := ParseScript([]byte(`{"turns": [{"match": {"api": "ollama"}, "reply": [{"text": "x"}]}]}`)); err == nil ||
		!strings.Contains(err.Error(), "ollama-chat") {
		t.Errorf("match.api ollama: %v", err)
	}
}

func TestNoOllamaChatWithoutInventory(t *testing.T) {
	srv := startFake(t, `{"turns": []}`, Options{})
	if resp, _ := post(t, srv.URL+"/api/chat", ollamaChatBody("qwen3:8b", "x", false, `"json"`)); resp.StatusCode != 404 {
		t.Errorf("/api/chat without an inventory: %d", resp.StatusCode)
	}
}
