package fakemodel

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

const ollamaScript = `{
  "ollama": {"version": "0.12.9", "models": [
    {"name": "qwen3:8b", "numCtx": 65536, "numPredict": -1, "quantization": "Q8_0"},
    {"name": "gemma3:latest", "capabilities": ["completion", "vision"]},
    {"name": "gpt-oss:120b-cloud", "remote": true}
  ]},
  "turns": [
    {"match": {"marker": "[mcp]"}, "reply": [{"toolUse": {"namespace": "mcp__files", "name": "echo", "input": {"x": 1}}}]},
    {"reply": [{"text": "hi"}]}
  ]
}`

func getJSON(t *testing.T, url string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, decode(t, string(b))
}

func TestOllamaInventory(t *testing.T) {
	srv := startFake(t, ollamaScript, Options{})
	if _, v := getJSON(t, srv.URL+"/api/version"); v["version"] != "0.12.9" {
		t.Errorf("version = %v", v)
	}
	_, tags := getJSON(t, srv.URL+"/api/tags")
	models := tags["models"].([]any)
	if len(models) != 3 || models[0].(map[string]any)["name"] != "qwen3:8b" {
		t.Fatalf("tags = %v", tags)
	}
	if cloud := models[2].(map[string]any); cloud["remote_host"] == nil {
		t.Errorf("cloud entry without remote_host: %v", cloud)
	}
	resp, body := post(t, srv.URL+"/api/show", `{"model": "qwen3:8b"}`)
	show := decode(t, string(body))
	if resp.StatusCode != 200 || !strings.Contains(show["parameters"].(string), "num_ctx                        65536") ||
		!strings.Contains(show["parameters"].(string), "num_predict                    -1") {
		t.Errorf("show = %d %v", resp.StatusCode, show)
	}
	if info := show["model_info"].(map[string]any); info["qwen3.context_length"] != float64(40960) {
		t.Errorf("model_info = %v", info)
	}
	// An omitted tag is :latest, as in Ollama.
	if resp, body := post(t, srv.URL+"/api/show", `{"model": "gemma3"}`); resp.StatusCode != 200 ||
		!strings.Contains(string(body), `"capabilities":["completion","vision"]`) {
		t.Errorf("show gemma3 = %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, srv.URL+"/api/show", `{"model": "llama3:8b"}`); resp.StatusCode != 404 ||
		!strings.Contains(string(body), `model 'llama3:8b' not found`) {
		t.Errorf("show missing = %d %s", resp.StatusCode, body)
	}
	for _, e := range srv.Log().Entries() {
		if e.API != APIOllama {
			t.Errorf("entry %d: api %q", e.Seq, e.API)
		}
	}
}

// TestOllamaPull: a model pulled while the server runs is listed and
// answered from then on; a name without its tag, one installed already,
// and a fake without an inventory are refused.
func TestOllamaPull(t *testing.T) {
	srv := startFake(t, ollamaScript, Options{})
	if resp, _ := post(t, srv.URL+"/api/show", `{"model": "llama3:8b"}`); resp.StatusCode != 404 {
		t.Fatalf("show before the pull = %d, want 404", resp.StatusCode)
	}
	if err := srv.PullOllama("llama3:8b"); err != nil {
		t.Fatal(err)
	}
	_, tags := getJSON(t, srv.URL+"/api/tags")
	if models := tags["models"].([]any); len(models) != 4 || models[3].(map[string]any)["name"] != "llama3:8b" {
		t.Fatalf("tags after the pull = %v", tags)
	}
	if resp, body := post(t, srv.URL+"/api/show", `{"model": "llama3:8b"}`); resp.StatusCode != 200 {
		t.Errorf("show after the pull = %d %s", resp.StatusCode, body)
	}
	for _, name := range []string{"llama3", "qwen3:8b"} {
		if err := srv.PullOllama(name); err == nil {
			t.Errorf("PullOllama(%q) = nil, want an error", name)
		}
	}
	hosted := startFake(t, `{"turns": []}`, Options{})
	if err := hosted.PullOllama("qwen3:8b"); err == nil {
		t.Error("a fake without an ollama inventory pulled a model")
	}
}

func ollamaResponsesBody(model, prompt string, tools string) string {
	return `{"model": "` + model + `", "stream": false, "input": "` + prompt + `", "tools": ` + tools + `}`
}

func TestOllamaResponsesRefusesMissingModel(t *testing.T) {
	srv := startFake(t, ollamaScript, Options{})
	resp, body := post(t, srv.URL+"/v1/responses", ollamaResponsesBody("llama3:8b", "hello", "[]"))
	if resp.StatusCode != 404 || !strings.Contains(string(body), `model \"llama3:8b\" not found, try pulling it first`) {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
	if srv.UnusedTurns() == nil {
		t.Error("a refused request took a turn")
	}
}

// Chat Completions (how OpenCode reaches Ollama) answers installed models
// from the script and refuses the others as Ollama does, without a turn.
func TestOllamaChatCompletions(t *testing.T) {
	srv := startFake(t, ollamaScript, Options{})
	chat := func(model string) string {
		return `{"model": "` + model + `", "messages": [{"role": "user", "content": "hello"}]}`
	}
	resp, body := post(t, srv.URL+"/v1/chat/completions", chat("llama3:8b"))
	if resp.StatusCode != 404 || !strings.Contains(string(body), `model \"llama3:8b\" not found, try pulling it first`) {
		t.Fatalf("missing model: got %d %s", resp.StatusCode, body)
	}
	if srv.UnusedTurns() == nil {
		t.Fatal("a refused request took a turn")
	}
	resp, body = post(t, srv.URL+"/v1/chat/completions", chat("qwen3:8b"))
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"role":"assistant"`) {
		t.Fatalf("installed model: got %d %s", resp.StatusCode, body)
	}
}

// The reported Ollama behaviour Codex trips on: a call of a namespace
// tool comes back flattened, without its namespace.
func TestOllamaFlattensNamespacedCalls(t *testing.T) {
	srv := startFake(t, ollamaScript, Options{})
	tools := `[{"type": "namespace", "name": "mcp__files", "tools": [{"type": "function", "name": "echo"}]}]`
	resp, body := post(t, srv.URL+"/v1/responses", ollamaResponsesBody("qwen3:8b", "[mcp]", tools))
	if resp.StatusCode != 200 {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
	var r struct {
		Output []map[string]any `json:"output"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatal(err)
	}
	call := r.Output[0]
	if call["name"] != "mcp__files.echo" || call["namespace"] != nil {
		t.Errorf("call = %v", call)
	}
}

func TestOllamaRejectsNamespaceTools(t *testing.T) {
	script := strings.Replace(ollamaScript, `"version": "0.12.9",`, `"version": "0.12.9", "namespaceTools": "reject",`, 1)
	srv := startFake(t, script, Options{})
	tools := `[{"type": "namespace", "name": "mcp__files", "tools": [{"type": "function", "name": "echo"}]}]`
	resp, body := post(t, srv.URL+"/v1/responses", ollamaResponsesBody("qwen3:8b", "[mcp]", tools))
	if resp.StatusCode != 400 || !strings.Contains(string(body), "Unsupported tool type") {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
	// Flat functions are served.
	resp, body = post(t, srv.URL+"/v1/responses", ollamaResponsesBody("qwen3:8b", "hello", `[{"type": "function", "name": "mcp__files__echo"}]`))
	if resp.StatusCode != 200 {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
}

func TestOllamaScriptValidation(t *testing.T) {
	for _, bad := range []string{
		`{"ollama": {"models": [{"name": "qwen3"}]}}`,
		`{"ollama": {"namespaceTools": "drop", "models": []}}`,
		`{"ollama": {"models": [{"name": "a:b"}, {"name": "a:b"}]}}`,
	} {
		if _, err := ParseScript([]byte(bad)); err == nil || !strings.Contains(err.Error(), "ollama") {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
}

func TestNoOllamaRoutesWithoutInventory(t *testing.T) {
	srv := startFake(t, `{"turns": []}`, Options{})
	if code, _ := getJSON(t, srv.URL+"/api/tags"); code != 404 {
		t.Errorf("/api/tags without an inventory: %d", code)
	}
}
