package opencode

import (
	"context"
	"encoding/json"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/stratos-agent/adapter/ollamaerr"
)

// envConfigContent is OpenCode's inline configuration variable. The
// isolated server gets Stratos's own; the user's is never merged in.
const envConfigContent = "OPENCODE_CONFIG_CONTENT"

// prepareOllama is the session's model and provider table for provider
// ollama: the server from OLLAMA_HOST, the model checked against its
// inventory (never inference) before the first prompt, and the
// OpenAI-compatible provider OpenCode reaches it through, described by
// that inventory. The model ID becomes the installed name (an omitted
// tag is :latest).
func (s *session) prepareOllama(ctx context.Context, env []string, m model) (model, map[string]any, error) {
	if err := checkNoCompetingOllama(s.spec.Name, env); err != nil {
		return model{}, nil, err
	}
	host, err := ollama.HostFromEnv(func(k string) string { return lookupEnv(env, k) })
	if err != nil {
		return model{}, nil, ollamaerr.ForAgent(Harness, s.spec.Name, err)
	}
	ready, err := ollama.Client{Host: host}.Ready(ctx, []string{m.ModelID})
	if err != nil {
		return model{}, nil, ollamaerr.ForAgent(Harness, s.spec.Name, err)
	}
	om := ready[0]
	s.log.Debug("ollama model ready", "host", host.String(), "model", om.Name, "digest", om.Digest,
		"quantization", om.Quantization, "context", om.Context(), "output", outputLimit(om))
	return model{ProviderID: providerOllama, ModelID: om.Name}, ollamaProviderTable(host, om), nil
}

// ollamaProviderTable is provider.ollama of the isolated configuration:
// OpenCode's catalog has no local Ollama provider, so Stratos defines an
// OpenAI-compatible one on the server's /v1, keyless (no apiKey: no
// Authorization header), with the model's limits from the inventory.
// Without limit.context OpenCode could not tell when to compact.
func ollamaProviderTable(host ollama.Host, m ollama.Model) map[string]any {
	return map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "Ollama (Stratos)",
		"options": map[string]any{"baseURL": host.URL("/v1")},
		"models": map[string]any{m.Name: map[string]any{"name": m.Name, "tool_call": true,
			"limit": map[string]any{"context": m.Context(), "output": outputLimit(m)}}}}
}

// outputLimit is the model's limit.output. Ollama's num_predict -1 (its
// default, also when unset) means "until the model stops"; OpenCode has
// no such value and reads 0 as "its default output budget" (32,000
// tokens unless OPENCODE_EXPERIMENTAL_OUTPUT_TOKEN_MAX says otherwise),
// the nearest finite budget. A positive num_predict is kept, capped at
// the context: no answer can be longer than the window it must fit in.
func outputLimit(m ollama.Model) int {
	n := m.NumPredict
	if !m.HasNumPredict || n <= 0 {
		return 0
	}
	if ctx := m.Context(); ctx > 0 && n > ctx {
		return ctx
	}
	return n
}

// checkNoCompetingOllama refuses a user's OPENCODE_CONFIG_CONTENT that
// defines provider.ollama: Stratos manages that provider (its origin
// comes from OLLAMA_HOST), and silently dropping the user's table would
// run the agent somewhere else than the user configured.
func checkNoCompetingOllama(agent string, env []string) error {
	content := lookupEnv(env, envConfigContent)
	if content == "" {
		return nil
	}
	var doc struct {
		Provider map[string]json.RawMessage `json:"provider"`
	}
	if err := json.Unmarshal([]byte(content), &doc); err != nil {
		return ollamaConfigError(agent, "%s is not JSON (%v), so Stratos cannot tell whether it configures provider ollama, which Stratos manages: unset it for this agent", envConfigContent, err)
	}
	if _, ok := doc.Provider[providerOllama]; ok {
		return ollamaConfigError(agent, "%s configures provider.ollama, which Stratos manages for provider ollama: remove that table and name the server with OLLAMA_HOST", envConfigContent)
	}
	return nil
}

func ollamaConfigError(agent, format string, args ...any) error {
	return agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: harness opencode: "+format, append([]any{agent}, args...)...).
		WithDetails(map[string]any{"harness": Harness, "provider": providerOllama})
}
