package decision

import (
	"context"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/shared/ollama"
)

// Providers of hosted models, answered through their own APIs.
const (
	// ProviderOpenAI is OpenAI's Chat Completions API or any endpoint
	// compatible with it.
	ProviderOpenAI = "openai"
	// ProviderAnthropic is the Anthropic Messages API.
	ProviderAnthropic = "anthropic"
)

// providers are the providers a decision can name, as errors list them.
var providers = []string{ProviderAnthropic, ProviderOllama, ProviderOpenAI, ProviderTest}

// hosted is what a hosted provider needs: its default endpoint and the
// variable of its key, the one its harnesses read.
type hosted struct {
	defaultURL string
	keyVar     string
}

var hostedProviders = map[string]hosted{
	ProviderOpenAI:    {defaultURL: "https://api.openai.com/v1", keyVar: "OPENAI_API_KEY"},
	ProviderAnthropic: {defaultURL: "https://api.anthropic.com", keyVar: "ANTHROPIC_API_KEY"},
}

// CatalogModel is what the model catalog says of a canonical model on a
// provider: the ID to request and its price (nil when unstated).
type CatalogModel struct {
	NativeID string
	Price    *modelsapi.Price
}

// Catalog maps a canonical model ID to the provider's native ID.
type Catalog func(ctx context.Context, model, provider string) (CatalogModel, error)

// target is where a decision is asked: its endpoint, the model as
// requests name it, the price of its turns and the provider's key.
type target struct {
	endpoint ollama.Host
	native   string
	price    *modelsapi.Price
	key      string
}

// completeProvider checks the provider and model, taking the provider
// from a canonical ID's creator when none is given (openai/gpt-4.1-mini
// is provider openai), and completes an Ollama name's tag (no tag means
// :latest, as Ollama takes it), so that requests, events and results
// name the model alike.
func completeProvider(cfg *Config) error {
	const where = "set decision.provider and decision.model in workflow.yaml, in the run's overrides or in decision()'s options"
	if cfg.Provider == ProviderTest {
		return nil
	}
	if cfg.Model == "" {
		return agentproto.Errorf(agentproto.CodeDecisionConfiguration, "a decision needs a model: %s", where)
	}
	if cfg.Provider == "" {
		creator, _, _ := strings.Cut(cfg.Model, "/")
		if _, ok := hostedProviders[creator]; !ok || !strings.Contains(cfg.Model, "/") {
			return agentproto.Errorf(agentproto.CodeDecisionConfiguration, "the decision's model %q needs a provider (known: %s): %s", cfg.Model, strings.Join(providers, ", "), where)
		}
		cfg.Provider = creator
	}
	if cfg.Provider == ProviderOllama {
		name, err := ollama.NormalizeName(cfg.Model)
		if err != nil {
			return agentproto.Errorf(agentproto.CodeDecisionConfiguration, "the decision's model: %v", err).Wrap(err)
		}
		cfg.Model = name
		return nil
	}
	if _, ok := hostedProviders[cfg.Provider]; !ok {
		return agentproto.Errorf(agentproto.CodeDecisionConfiguration, "decisions cannot use provider %q (known: %s)", cfg.Provider, strings.Join(providers, ", ")).
			WithDetails(map[string]any{"provider": cfg.Provider})
	}
	return nil
}

// Endpoint is the endpoint a decision of cfg is sent to, by the rules
// decisions use at run time: for Ollama, OllamaEndpoint's; for a hosted
// provider, the effective baseUrl (which may carry a path prefix) or the
// provider's own endpoint. An invalid baseUrl is an error, never a
// fallback. cfg's provider and model are completed first. The explicit
// build's check calls it, so both agree.
func Endpoint(cfg *Config, getenv func(string) string) (ollama.Host, error) {
	if err := completeProvider(cfg); err != nil {
		return ollama.Host{}, err
	}
	if cfg.Provider == ProviderOllama {
		return OllamaEndpoint(*cfg, getenv)
	}
	p := hostedProviders[cfg.Provider]
	if cfg.BaseURL == "" {
		return ollama.ParseBaseURL(p.defaultURL)
	}
	h, err := ollama.ParseBaseURL(cfg.BaseURL)
	if err != nil {
		return ollama.Host{}, endpointError(cfg.BaseURLFrom+".baseUrl", p.defaultURL, err)
	}
	return h, nil
}

// target resolves where a decision of cfg is asked. A hosted provider's
// key comes from the variable its harnesses read, and is required on the
// provider's own endpoint (a compatible server of one's own may need
// none). Its model is a canonical ID mapped by the catalog to the native
// ID and priced; a name without a creator ("gpt-4.1-mini"), or one the
// catalog cannot map on an endpoint of one's own, is the endpoint's own
// name, sent as written and unpriced.
func (a *Asker) target(ctx context.Context, cfg *Config) (target, error) {
	host, err := Endpoint(cfg, a.Getenv)
	if err != nil {
		return target{}, err
	}
	if cfg.Provider == ProviderOllama {
		return target{endpoint: host, native: cfg.Model}, nil
	}
	p := hostedProviders[cfg.Provider]
	t := target{endpoint: host, native: cfg.Model, key: a.Getenv(p.keyVar)}
	if t.key == "" && cfg.BaseURL == "" {
		return target{}, agentproto.Errorf(agentproto.CodeDecisionConfiguration,
			"decisions on provider %s need its key in %s (the variable its harnesses read), or a baseUrl of a compatible endpoint that needs none", cfg.Provider, p.keyVar)
	}
	if !strings.Contains(cfg.Model, "/") || a.Catalog == nil {
		return t, nil
	}
	m, err := a.catalogModel(ctx, cfg.Model, cfg.Provider)
	switch {
	case err == nil:
		t.native, t.price = m.NativeID, m.Price
	case cfg.BaseURL == "":
		return target{}, agentproto.Errorf(agentproto.CodeDecisionConfiguration, "the decision's model %q on provider %s: %v", cfg.Model, cfg.Provider, err).Wrap(err)
	}
	return t, nil
}

// keyVarOf names the variable of a hosted provider's key.
func keyVarOf(provider string) string { return hostedProviders[provider].keyVar }

// catalogModel asks the catalog once per model and provider for this
// Asker: a lookup starts a process, and a run's decisions ask the same
// few models again and again. Failures are not kept.
func (a *Asker) catalogModel(ctx context.Context, model, provider string) (CatalogModel, error) {
	key := model + " " + provider
	a.mu.Lock()
	m, ok := a.catalog[key]
	a.mu.Unlock()
	if ok {
		return m, nil
	}
	m, err := a.Catalog(ctx, model, provider)
	if err != nil {
		return m, err
	}
	a.mu.Lock()
	if a.catalog == nil {
		a.catalog = map[string]CatalogModel{}
	}
	a.catalog[key] = m
	a.mu.Unlock()
	return m, nil
}
