package decision

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/ollama"
)

// CheckSection checks a workflow.yaml decision section as a decision
// checks that layer, and what of the endpoint it fixes without the
// environment: the fields, the provider and model when it names them, and
// its baseUrl by the provider's rules. A section may leave the provider
// and model to the run's overrides or the call; those are checked when
// used. layer names the section in errors ("…/workflow.yaml decision").
func CheckSection(layer string, raw json.RawMessage) (Config, error) {
	cfg, err := Resolve(Layer{Name: layer, Raw: raw})
	if err != nil {
		return cfg, err
	}
	if cfg.Provider == "" && cfg.Model == "" {
		if cfg.BaseURL != "" {
			if _, err := ollama.ParseBaseURL(cfg.BaseURL); err != nil {
				return cfg, endpointError(layer+".baseUrl", "another endpoint", err)
			}
		}
		return cfg, nil
	}
	if cfg.Provider == ProviderTest {
		return cfg, nil // answered from its script: no endpoint
	}
	if cfg.Model == "" {
		if !slices.Contains(providers, cfg.Provider) {
			return cfg, configError(layer, "provider", "%q is not a provider decisions can use (known: %s)", cfg.Provider, strings.Join(providers, ", "))
		}
		return cfg, nil
	}
	if cfg.Provider == ProviderOllama && cfg.BaseURL == "" {
		return cfg, completeProvider(&cfg) // OLLAMA_HOST is the run's
	}
	_, err = Endpoint(&cfg, func(string) string { return "" })
	return cfg, err
}

// CheckReach is the explicit build's check of a section's endpoint and
// model with the rules a decision uses at run time: the endpoint Endpoint
// selects (OLLAMA_HOST read through a.Getenv), reachable, and the model
// on it — for Ollama installed, local and with completion, read from the
// inventory; for a hosted provider, mapped by the catalog and known to
// the endpoint (its model list, with the provider's key). No inference is
// asked for. A section without a model checks nothing: the model comes at
// run time.
func (a *Asker) CheckReach(ctx context.Context, cfg Config) error {
	if cfg.Model == "" || cfg.Provider == ProviderTest {
		return nil
	}
	t, err := a.target(ctx, &cfg)
	if err != nil {
		return err
	}
	switch cfg.Provider {
	case ProviderOllama:
		return answerable(ctx, a.HTTP, t.endpoint, t.native)
	case ProviderOpenAI:
		return a.listed(ctx, t, "OpenAI-compatible endpoint", "/models", keyVarOf(ProviderOpenAI), func(h http.Header) {
			if t.key != "" {
				h.Set("Authorization", "Bearer "+t.key)
			}
		})
	}
	return a.listed(ctx, t, "Anthropic endpoint", "/v1/models/"+url.PathEscape(t.native), keyVarOf(ProviderAnthropic), func(h http.Header) {
		h.Set("anthropic-version", anthropicVersion)
		if t.key != "" {
			h.Set("x-api-key", t.key)
		}
	})
}

// listed asks a hosted endpoint for its model list (OpenAI-compatible:
// GET /models) or for the model (Anthropic: GET /v1/models/{id}) and
// checks that the model is there.
func (a *Asker) listed(ctx context.Context, t target, name, path, keyVar string, header func(http.Header)) error {
	api := api{http: a.HTTP, name: name, endpoint: t.endpoint}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.endpoint.URL(path), nil)
	if err != nil {
		return api.errorf(agentproto.CodeDecisionEndpoint, "cannot make the request: %v", err)
	}
	header(req.Header)
	resp, err := a.HTTP.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return api.errorf(agentproto.CodeDecisionEndpoint, "not reachable (GET %s: %v)", path, urlCause(err)).Wrap(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReply+1))
	if err != nil || len(data) > maxReply {
		return api.errorf(agentproto.CodeDecisionEndpoint, "reading the answer to GET %s failed or is larger than %d bytes", path, maxReply)
	}
	if resp.StatusCode/100 != 2 {
		return api.statusError("GET "+path, resp.StatusCode, openaiMessage(data), keyVar)
	}
	var list struct {
		ID   string `json:"id"`
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return api.errorf(agentproto.CodeDecisionEndpoint, "the answer to GET %s is not a model list: %s", path, shown(data))
	}
	if list.ID == t.native {
		return nil
	}
	var ids []string
	for _, m := range list.Data {
		if m.ID == t.native {
			return nil
		}
		ids = append(ids, m.ID)
	}
	return api.errorf(agentproto.CodeDecisionModelUnavailable, "model %q is not listed by GET %s (listed: %s)", t.native, path, strings.Join(ids, ", "))
}
