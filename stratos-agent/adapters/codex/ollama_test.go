package codex

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

func TestOllamaThreadConfig(t *testing.T) {
	h, _ := ollama.ParseHost("http://127.0.0.1:11434")
	prov, err := ollamaSessionProvider(h, ollama.Model{Name: "qwen3:8b", NumCtx: 65536, ArchContext: 40960}, false)
	if err != nil {
		t.Fatal(err)
	}
	c := threadConfig{spec: adapter.Spec{WorkingDirectory: "/w"}, provider: prov, model: "qwen3:8b"}
	p := c.params()
	if p["modelProvider"] != "stratos-ollama" || p["model"] != "qwen3:8b" {
		t.Errorf("params = %v", p)
	}
	cfg := p["config"].(map[string]any)
	table := cfg["model_providers"].(map[string]any)["stratos-ollama"].(map[string]any)
	if table["base_url"] != "http://127.0.0.1:11434/v1" || table["wire_api"] != "responses" || table["request_max_retries"] != 1 {
		t.Errorf("provider table = %v", table)
	}
	if _, ok := table["env_key"]; ok {
		t.Errorf("an Ollama provider must be keyless: %v", table)
	}
	if cfg["model_context_window"] != 65536 {
		t.Errorf("model_context_window = %v, want num_ctx", cfg["model_context_window"])
	}
	if f := cfg["features"].(map[string]any); f["multi_agent"] != false || f["unbounded_connection_retries"] != false || f["view_image"] != false {
		t.Errorf("features = %v, want multi_agent, unbounded_connection_retries and (a model without vision) view_image off", f)
	}
	if cfg["web_search"] != "disabled" {
		t.Errorf("web_search = %v, want disabled: a local server runs no hosted tool", cfg["web_search"])
	}
	// Without num_ctx, the advertised limit.
	prov, _ = ollamaSessionProvider(h, ollama.Model{Name: "m:1", ArchContext: 40960}, false)
	if prov.Config["model_context_window"] != 40960 {
		t.Errorf("without num_ctx: %v", prov.Config)
	}
}

// A model that advertises vision keeps view_image: only a model without
// image input loses it.
func TestOllamaVisionModelKeepsViewImage(t *testing.T) {
	h, _ := ollama.ParseHost("http://127.0.0.1:11434")
	prov, err := ollamaSessionProvider(h, ollama.Model{Name: "qwen2.5vl:7b", Capabilities: []string{"completion", "tools", "vision"}}, false)
	if err != nil {
		t.Fatal(err)
	}
	cfg := threadConfig{spec: adapter.Spec{WorkingDirectory: "/w"}, provider: prov, model: "qwen2.5vl:7b"}.config()
	if v, set := cfg["features"].(map[string]any)["view_image"]; set {
		t.Errorf("features.view_image = %v for a vision model, want it left to Codex (on)", v)
	}
}

// upstream answers every /v1/responses with the given SSE events and
// records the request body; it fails the test when a request carries an
// Authorization header (the proxy's token is not the server's).
func upstream(t *testing.T, events []string, got *map[string]any) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a := r.Header.Get("Authorization"); a != "" {
			t.Errorf("the upstream server got Authorization %q", a)
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, got)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range events {
			io.WriteString(w, "event: x\ndata: "+e+"\n\n")
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestNamespaceProxy(t *testing.T) {
	var got map[string]any
	up := upstream(t, []string{
		`{"type":"response.output_item.done","item":{"type":"function_call","name":"mcp__files__read","arguments":"{}"}}`,
		`{"type":"response.output_item.done","item":{"type":"function_call","name":"mcp__files.read","arguments":"{}"}}`,
		`{"type":"response.output_item.done","item":{"type":"function_call","name":"exec_command","arguments":"{}"}}`,
		`[DONE]`,
	}, &got)
	p, err := startNamespaceProxy(up.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	body := `{"model":"m","stream":true,
	  "tools":[{"type":"function","name":"exec_command"},
	           {"type":"namespace","name":"mcp__files","description":"d","tools":[{"type":"function","name":"read","parameters":{"type":"object"}}]}],
	  "input":[{"type":"function_call","namespace":"mcp__files","name":"read","call_id":"c1","arguments":"{}"},
	           {"type":"function_call_output","call_id":"c1","output":"x"}]}`
	resp, err := proxyPost(p, body, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var calls []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var ev struct {
			Item map[string]any `json:"item"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		calls = append(calls, ev.Item)
	}
	tools, _ := json.Marshal(got["tools"])
	if want := `[{"name":"exec_command","type":"function"},{"name":"mcp__files__read","parameters":{"type":"object"},"type":"function"}]`; string(tools) != want {
		t.Errorf("upstream tools = %s\nwant %s", tools, want)
	}
	history, _ := json.Marshal(got["input"].([]any)[0])
	if strings.Contains(string(history), "namespace") || !strings.Contains(string(history), `"name":"mcp__files__read"`) {
		t.Errorf("upstream history = %s", history)
	}
	if len(calls) != 3 {
		t.Fatalf("calls = %v", calls)
	}
	for i, c := range calls[:2] {
		if c["namespace"] != "mcp__files" || c["name"] != "read" {
			t.Errorf("call %d = %v, want namespace mcp__files, name read", i, c)
		}
	}
	if calls[2]["name"] != "exec_command" || calls[2]["namespace"] != nil {
		t.Errorf("a plain call changed: %v", calls[2])
	}
}

func TestNamespaceProxyNamesTheServerWhenItIsDown(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	base := down.URL
	down.Close()
	p, err := startNamespaceProxy(base)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	resp, err := proxyPost(p, `{"model":"m","input":"hi"}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(b), "Ollama at "+base+" is not reachable") {
		t.Errorf("got %d %s", resp.StatusCode, b)
	}
}

// proxyPost sends body to the proxy's /v1/responses as Codex does, with
// the proxy's token; change alters the request first.
func proxyPost(p *namespaceProxy, body string, change func(*http.Request)) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, p.url+"/v1/responses", strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+p.token)
	if change != nil {
		change(req)
	}
	return http.DefaultClient.Do(req)
}

// Other users of the machine and web pages in the user's browser reach
// the proxy's port too: without the token, under a foreign Host or from
// another origin, a request is refused and never reaches the model server.
func TestNamespaceProxyServesOnlyCodex(t *testing.T) {
	var reached atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached.Add(1) }))
	defer up.Close()
	p, err := startNamespaceProxy(up.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, tt := range []struct {
		name   string
		change func(*http.Request)
		want   int
	}{
		{"no token", func(r *http.Request) { r.Header.Del("Authorization") }, http.StatusUnauthorized},
		{"a wrong token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer x"+p.token[1:]) }, http.StatusUnauthorized},
		{"a foreign Host", func(r *http.Request) { r.Host = "evil.example:" + r.URL.Port() }, http.StatusForbidden},
		{"another origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, http.StatusForbidden},
	} {
		resp, err := proxyPost(p, `{"model":"m","input":"hi"}`, tt.change)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s: HTTP %d, want %d", tt.name, resp.StatusCode, tt.want)
		}
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("%d refused requests reached the model server", n)
	}
}

// Through the proxy, Codex's provider takes the proxy's token as its key,
// from the app-server's environment; without it, the provider is keyless.
func TestTheProxysTokenIsTheProvidersKey(t *testing.T) {
	h, _ := ollama.ParseHost("http://127.0.0.1:11434")
	prov, err := ollamaSessionProvider(h, ollama.Model{Name: "qwen3:8b"}, true)
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(Options{}.WithDefaults(), adapter.Spec{Name: "a"}, func(adapter.Event) {}, nil, nil)
	if err := s.prepare(binary{path: "codex"}, []string{"PATH=/usr/bin"}, prov, "qwen3:8b", nil); err != nil {
		t.Fatal(err)
	}
	defer s.releasePreparedLocked()
	proxy := prov.proxy.(*namespaceProxy)
	if prov.Table["env_key"] != proxyTokenVar || prov.Table["base_url"] != proxy.url+"/v1" {
		t.Errorf("provider table = %v, want the proxy with env_key %s", prov.Table, proxyTokenVar)
	}
	if got := lookupEnv(s.env, proxyTokenVar); got != proxy.token {
		t.Errorf("%s in the app-server's environment = %q, want the proxy's token", proxyTokenVar, got)
	}
}

// The proxy reads a request, and a JSON answer, whole to rewrite them: one
// over its bound is refused (413), or answered as the model server's error
// (502, saying why), instead of held in memory however large.
func TestNamespaceProxyBoundsWhatItReadsWhole(t *testing.T) {
	var reached atomic.Int32
	answer := strings.Repeat("x", 2048)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"output":"`+answer+`"}`)
	}))
	defer up.Close()
	p, err := startNamespaceProxy(up.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.maxBody = 1024

	resp, err := proxyPost(p, `{"model":"m","input":"`+strings.Repeat("y", 2048)+`"}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || reached.Load() != 0 || !strings.Contains(string(body), "1024 bytes") {
		t.Errorf("a request over the bound: %d %q, upstream reached %d times; want 413 naming the bound, upstream not reached", resp.StatusCode, body, reached.Load())
	}

	resp, err = proxyPost(p, `{"model":"m","input":"small"}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), "larger than the proxy passes") || strings.Contains(string(body), answer) {
		t.Errorf("an answer over the bound: %d %q; want 502 saying it was too large", resp.StatusCode, body)
	}
}
