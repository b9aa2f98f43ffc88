package decision

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// The section is checked by the runtime's rules without the environment:
// its fields, the provider and model it names, and its baseUrl, each
// error naming the section and field; what it leaves to the run passes.
func TestCheckSection(t *testing.T) {
	const layer = "wf/workflow.yaml decision"
	for raw, want := range map[string]string{
		`{"provider": "ollama", "model": "qwen3:8b", "baseUrl": "not a url at all"}`: `wf/workflow.yaml decision.baseUrl: "not a url at all" is not an HTTP(S) URL: it needs the scheme http:// or https:// (e.g. http://127.0.0.1:11434) (the decision's endpoint; Stratos does not fall back to OLLAMA_HOST)`,
		`{"model": "openai/gpt-4.1-mini", "baseUrl": "ftp://x"}`:                     `wf/workflow.yaml decision.baseUrl: "ftp://x" is not an HTTP(S) URL Stratos can use: it needs the scheme`,
		`{"baseUrl": "http://user:pw@x"}`:                                            `wf/workflow.yaml decision.baseUrl: "http://REDACTED@x" is not an HTTP(S) URL Stratos can use: it must not carry credentials`,
		`{"samples": 0}`:                                                             `wf/workflow.yaml decision.samples: must be an integer from 1 to 15, got 0`,
		`{"provider": "jev"}`:                                                        `wf/workflow.yaml decision.provider: "jev" is not a provider decisions can use (known: anthropic, ollama, openai, test)`,
		`{"provider": "jev", "model": "x"}`:                                          `decisions cannot use provider "jev"`,
		`{"model": "qwen3:8b"}`:                                                      `the decision's model "qwen3:8b" needs a provider`,
		`{"provider": "ollama", "model": "a:b:c"}`:                                   `invalid model name "a:b:c"`,
		`"fast"`: `wf/workflow.yaml decision: must be a mapping of decision settings`,
	} {
		_, err := CheckSection(layer, json.RawMessage(raw))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
	for _, raw := range []string{``, `{"samples": 3}`, `{"provider": "ollama"}`, `{"baseUrl": "http://127.0.0.1:9/v1"}`,
		`{"provider": "ollama", "model": "qwen3:8b"}`, `{"model": "openai/gpt-4.1-mini"}`, `{"provider": "test", "script": [{"answer": "yes"}]}`} {
		if _, err := CheckSection(layer, json.RawMessage(raw)); err != nil {
			t.Errorf("%s: %v", raw, err)
		}
	}
}

// The explicit build's check reaches the endpoint and finds the model, by
// the rules and with the key a decision uses, asking for no inference.
func TestCheckReach(t *testing.T) {
	ollamaSrv := fakeOllama(t, `[]`)
	hosted := fakeHosted(t, `[]`)
	hostedWithModels := func() string {
		srv := startModels(t, `["gpt-4.1-mini", "claude-haiku-4-5"]`)
		return srv
	}()
	check := func(a *Asker, raw string) error {
		cfg, err := CheckSection("w decision", json.RawMessage(raw))
		if err != nil {
			return err
		}
		return a.CheckReach(context.Background(), cfg)
	}
	for _, c := range []struct {
		name, raw string
		a         *Asker
		want      string // "" for success
	}{
		{"ollama installed", `{"provider": "ollama", "model": "qwen3:8b"}`, asker(ollamaSrv), ""},
		{"ollama missing", `{"provider": "ollama", "model": "mistral"}`, asker(ollamaSrv), "not installed: mistral:latest"},
		{"no model: nothing to check", `{"provider": "ollama"}`, asker(nil), ""},
		{"openai listed", `{"model": "openai/gpt-4.1-mini", "baseUrl": "` + hostedWithModels + `/v1"}`, hostedAsker(keys()), ""},
		{"openai not listed", `{"provider": "openai", "model": "gpt-9", "baseUrl": "` + hostedWithModels + `/v1"}`, hostedAsker(keys()),
			`model "gpt-9" is not listed by GET /models (listed: gpt-4.1-mini, claude-haiku-4-5)`},
		{"anthropic found", `{"model": "anthropic/claude-haiku-4-5", "baseUrl": "` + hostedWithModels + `"}`, hostedAsker(keys()), ""},
		{"anthropic not found", `{"provider": "anthropic", "model": "claude-x", "baseUrl": "` + hostedWithModels + `"}`, hostedAsker(keys()), "GET /v1/models/claude-x answered HTTP 404"},
		{"no key", `{"model": "openai/gpt-4.1-mini"}`, hostedAsker(nil), "need its key in OPENAI_API_KEY"},
		{"no model list", `{"provider": "openai", "model": "m", "baseUrl": "` + hosted.URL + `/v1"}`, hostedAsker(keys()), "GET /models answered HTTP 404"},
	} {
		err := check(c.a, c.raw)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if n := len(hosted.Log().Entries()); n != 1 || hosted.Log().Entries()[0].Method != "GET" {
		t.Errorf("the check asked for an inference: %+v", hosted.Log().Entries())
	}
}
