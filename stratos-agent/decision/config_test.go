package decision

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
)

func layer(name, raw string) Layer { return Layer{Name: name, Raw: json.RawMessage(raw)} }

// Layers merge field by field, the later over the earlier: a field a
// layer does not give keeps the earlier value.
func TestResolveMergesFieldByField(t *testing.T) {
	cfg, err := Resolve(
		layer("workflow.yaml decision", `{"provider": "ollama", "model": "qwen3:8b", "baseUrl": "http://a:1", "retries": 4, "temperature": 0}`),
		layer("overrides.decision", `{"model": "gemma3:4b", "samples": 3}`),
		layer("decision() options", `{"samples": 5, "reasons": true, "seed": 7}`),
	)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Provider != "ollama" || cfg.Model != "gemma3:4b" || cfg.BaseURL != "http://a:1" || cfg.BaseURLFrom != "workflow.yaml decision" ||
		cfg.Samples != 5 || cfg.Retries != 4 || !cfg.Reasons || *cfg.Seed != 7 || *cfg.Temperature != 0 || cfg.Timeout != DefaultTimeout {
		t.Errorf("resolved %+v", cfg)
	}
	// Absent and null layers give nothing; the defaults stand.
	cfg, err = Resolve(layer("workflow.yaml decision", ``), layer("overrides.decision", `null`), layer("decision() options", `{"timeoutMs": 1500}`))
	if err != nil || cfg.Samples != DefaultSamples || cfg.Retries != DefaultRetries || cfg.Timeout != 1500*time.Millisecond || cfg.Temperature != nil || cfg.Seed != nil {
		t.Errorf("defaults: %+v, %v", cfg, err)
	}
}

// Each layer is checked on its own; the error names the layer and field.
func TestResolveNamesTheBadField(t *testing.T) {
	for raw, want := range map[string]string{
		`{"samples": 0}`:          `overrides.decision.samples: must be an integer from 1 to 15, got 0`,
		`{"samples": 2.5}`:        `overrides.decision.samples: must be an integer from 1 to 15, got 2.5`,
		`{"retries": 11}`:         `overrides.decision.retries: must be an integer from 0 to 10, got 11`,
		`{"timeoutMs": "30s"}`:    `overrides.decision.timeoutMs: must be an integer from 1 to 3600000, got "30s"`,
		`{"temperature": 3}`:      `overrides.decision.temperature: must be a number from 0 to 2, got 3`,
		`{"seed": 1.5}`:           `overrides.decision.seed: must be an integer, got 1.5`,
		`{"reasons": "yes"}`:      `overrides.decision.reasons: must be true or false, got "yes"`,
		`{"model": ""}`:           `overrides.decision.model: must be a non-empty string, got ""`,
		`{"provider": 1}`:         `overrides.decision.provider: must be a non-empty string, got 1`,
		`{"modle": "qwen3"}`:      `overrides.decision.modle: unknown field (known: provider, model,`,
		`["ollama"]`:              `overrides.decision: must be a mapping of decision settings`,
		`{"model": "a", "model"`:  `overrides.decision: is not valid JSON`,
		`{"baseUrl": ["http:x"]}`: `overrides.decision.baseUrl: must be a non-empty string`,
		// null (a YAML key left empty, NaN or Infinity from JSON.stringify)
		// is no value: decoded, it was a temperature of 0, a seed of 0, no
		// retries.
		`{"temperature": null}`: `overrides.decision.temperature: must be a number from 0 to 2, got null`,
		`{"seed": null}`:        `overrides.decision.seed: must be an integer, got null`,
		`{"retries": null}`:     `overrides.decision.retries: must be an integer from 0 to 10, got null`,
		`{"reasons": null}`:     `overrides.decision.reasons: must be true or false, got null`,
		`{"samples": null}`:     `overrides.decision.samples: must be an integer from 1 to 15, got null`,
		`{"timeoutMs": null}`:   `overrides.decision.timeoutMs: must be an integer from 1 to 3600000, got null`,
	} {
		_, err := Resolve(layer("workflow.yaml decision", `{"model": "qwen3:8b"}`), layer("overrides.decision", raw))
		var e *agentproto.Error
		if !errors.As(err, &e) || e.Code != agentproto.CodeDecisionConfiguration || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %s", raw, err, want)
		}
	}
}

// The endpoint selected is the one used: baseUrl (a path prefix allowed),
// else OLLAMA_HOST (an origin), else the default; an invalid one is an
// error naming its source, never a fallback.
func TestOllamaEndpoint(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "OLLAMA_HOST" {
				return v
			}
			return ""
		}
	}
	for _, c := range []struct {
		baseURL, from, ollamaHost string
		want                      string
		err                       string
	}{
		{"", "", "", "http://127.0.0.1:11434", ""},
		{"", "", "http://ollama.lan:8080", "http://ollama.lan:8080", ""},
		{"https://gw.example/ollama/", "x decision", "http://ollama.lan:8080", "https://gw.example/ollama", ""},
		// A valid baseUrl makes OLLAMA_HOST irrelevant, even an invalid one.
		{"http://127.0.0.1:9", "x decision", "0.0.0.0", "http://127.0.0.1:9", ""},
		{"not a url at all", "w/workflow.yaml decision", "http://ollama.lan:8080", "",
			`w/workflow.yaml decision.baseUrl: "not a url at all" is not an HTTP(S) URL: it needs the scheme http:// or https:// (e.g. http://127.0.0.1:11434) (the decision's endpoint; Stratos does not fall back to OLLAMA_HOST)`},
		{"http://u:secret@gw/x", "overrides.decision", "", "", `overrides.decision.baseUrl: "http://REDACTED@gw/x" is not an HTTP(S) URL Stratos can use: it must not carry credentials`},
		// OLLAMA_HOST is an origin only: a path is refused, not used as a prefix.
		{"", "", "http://ollama.lan:8080/prefix", "", `OLLAMA_HOST: "http://ollama.lan:8080/prefix" is not an HTTP(S) origin: it must not have a path (the decision's endpoint; Stratos does not fall back to http://127.0.0.1:11434)`},
		{"", "", "localhost:11434", "", `OLLAMA_HOST: "localhost:11434" is not an HTTP(S) origin`},
	} {
		h, err := OllamaEndpoint(Config{BaseURL: c.baseURL, BaseURLFrom: c.from}, env(c.ollamaHost))
		switch {
		case c.err == "" && (err != nil || h.String() != c.want):
			t.Errorf("%+v: %v, %v; want %s", c, h, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || agentproto.CodeOf(err) != agentproto.CodeDecisionConfiguration):
			t.Errorf("%+v: %v; want %s", c, err, c.err)
		case strings.Contains(errText(err), "secret"):
			t.Errorf("%+v: the error leaks a password: %v", c, err)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
