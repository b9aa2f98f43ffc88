package opencode

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

func TestOutputLimitFollowsNumPredict(t *testing.T) {
	for _, c := range []struct {
		name string
		m    ollama.Model
		want int
	}{
		{"unset: OpenCode's default budget", ollama.Model{NumCtx: 8192}, 0},
		{"-1: OpenCode's default budget", ollama.Model{NumCtx: 8192, NumPredict: -1, HasNumPredict: true}, 0},
		{"positive, within the context", ollama.Model{NumCtx: 8192, NumPredict: 4096, HasNumPredict: true}, 4096},
		{"positive, capped at num_ctx", ollama.Model{NumCtx: 8192, NumPredict: 100000, HasNumPredict: true}, 8192},
		{"positive, capped at the advertised context", ollama.Model{ArchContext: 40960, NumPredict: 50000, HasNumPredict: true}, 40960},
	} {
		if got := outputLimit(c.m); got != c.want {
			t.Errorf("%s: limit.output %d, want %d", c.name, got, c.want)
		}
	}
}

func TestOllamaProviderTableDescribesTheInstalledModel(t *testing.T) {
	host, err := ollama.ParseHost("http://127.0.0.1:7")
	if err != nil {
		t.Fatal(err)
	}
	m := ollama.Model{Name: "qwen3:8b", NumCtx: 65536, ArchContext: 40960, NumPredict: 2048, HasNumPredict: true}
	tab := ollamaProviderTable(host, m)
	want := map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "Ollama (Stratos)",
		"options": map[string]any{"baseURL": "http://127.0.0.1:7/v1"},
		"models": map[string]any{"qwen3:8b": map[string]any{"name": "qwen3:8b", "tool_call": true,
			"limit": map[string]any{"context": 65536, "output": 2048}}}}
	if !reflect.DeepEqual(tab, want) {
		t.Fatalf("provider table\n%v\nwant\n%v", tab, want)
	}
	cfg := serverConfig{model: model{providerOllama, "qwen3:8b"}, provider: tab}
	doc, err := cfg.render()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"model":"ollama/qwen3:8b"`, `"small_model":"ollama/qwen3:8b"`, `"enabled_providers":["ollama"]`} {
		if !strings.Contains(string(doc), s) {
			t.Errorf("configuration lacks %s (the auxiliary model is the selected one):\n%s", s, doc)
		}
	}
}

func TestACompetingOllamaProviderIsAConfigurationError(t *testing.T) {
	for _, content := range []string{`{"provider":{"ollama":{"options":{"baseURL":"http://127.0.0.1:9/v1"}}}}`, `{"provider": {`} {
		err := checkNoCompetingOllama("coder", []string{envConfigContent + "=" + content})
		var pe *agentproto.Error
		if !errors.As(err, &pe) || pe.Code != agentproto.CodeConfiguration || !strings.Contains(err.Error(), envConfigContent) {
			t.Errorf("%s: got %v, want a configuration error naming %s", content, err, envConfigContent)
		}
	}
	for _, env := range [][]string{nil, {envConfigContent + `={"provider":{"openai":{}},"theme":"x"}`}} {
		if err := checkNoCompetingOllama("coder", env); err != nil {
			t.Errorf("%v: %v", env, err)
		}
	}
}

// prepareOllama against a fake Ollama server: readiness from /api/tags and
// /api/show only, the installed name, and failures naming the server.
func TestPrepareOllamaReadsTheInventory(t *testing.T) {
	s, err := fakemodel.ParseScript([]byte(`{"ollama": {"models": [
		{"name": "qwen3:latest", "numCtx": 16384, "numPredict": -1},
		{"name": "gemma3:4b", "capabilities": ["completion", "vision"]}]}, "turns": []}`))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(s, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	sess := newSession(Options{Log: hclog.NewNullLogger()}, adapter.Spec{Name: "coder"}, nil, nil, nil)
	env := []string{"OLLAMA_HOST=" + srv.URL}
	prepare := func(env []string, name string) (model, map[string]any, error) {
		return sess.prepareOllama(context.Background(), env, model{providerOllama, name})
	}

	m, tab, err := prepare(env, "qwen3")
	if err != nil {
		t.Fatal(err)
	}
	if m != (model{providerOllama, "qwen3:latest"}) {
		t.Errorf("model %v: the installed name, tag included", m)
	}
	limit := tab["models"].(map[string]any)["qwen3:latest"].(map[string]any)["limit"]
	if !reflect.DeepEqual(limit, map[string]any{"context": 16384, "output": 0}) {
		t.Errorf("limit %v", limit)
	}
	for _, e := range srv.Log().Entries() {
		if e.API != fakemodel.APIOllama {
			t.Errorf("readiness made a model request: %s %s", e.Method, e.Path)
		}
	}

	for _, c := range []struct{ name, want string }{
		{"llama3:8b", "not installed: llama3:8b"},
		{"gemma3:4b", "lacks the tools capability"},
	} {
		_, _, err := prepare(env, c.name)
		r, ok := rejection.As(err)
		if !ok || r.Reason != rejection.ModelUnavailable || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), srv.URL) {
			t.Errorf("%s: got %v, want model_unavailable saying %q and naming %s", c.name, err, c.want, srv.URL)
		}
	}
	_, _, err = prepare([]string{"OLLAMA_HOST=" + srv.URL + "/api"}, "qwen3")
	var pe *agentproto.Error
	if !errors.As(err, &pe) || pe.Code != agentproto.CodeConfiguration || !strings.Contains(err.Error(), "must not have a path") {
		t.Errorf("bad OLLAMA_HOST: got %v", err)
	}
}
