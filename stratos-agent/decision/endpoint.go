package decision

import (
	"errors"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/ollama"
)

// OllamaEndpoint is the server a decision on provider ollama is sent to:
// the effective baseUrl (call > invocation > YAML), which may carry a path
// prefix; else OLLAMA_HOST, an origin only, as agents take it; else
// ollama.DefaultHost. The endpoint selected is the one used: an invalid
// baseUrl does not fall back to OLLAMA_HOST, and an invalid OLLAMA_HOST
// does not fall back to the default. The explicit build's check resolves
// endpoints with this function, so both agree.
func OllamaEndpoint(cfg Config, getenv func(string) string) (ollama.Host, error) {
	if cfg.BaseURL != "" {
		h, err := ollama.ParseBaseURL(cfg.BaseURL)
		if err != nil {
			return ollama.Host{}, endpointError(cfg.BaseURLFrom+".baseUrl", "OLLAMA_HOST", err)
		}
		return h, nil
	}
	h, err := ollama.HostFromEnv(getenv)
	if err != nil {
		return ollama.Host{}, endpointError(ollama.EnvHost, ollama.DefaultHost, err)
	}
	return h, nil
}

// endpointError is an invalid selected endpoint: a configuration error
// naming where the endpoint came from, and the fallback not taken.
func endpointError(source, notTaken string, err error) error {
	msg := err.Error()
	var oe *ollama.Error
	if errors.As(err, &oe) {
		msg = strings.TrimPrefix(strings.TrimPrefix(msg, "Ollama host "), ollama.EnvHost+": Ollama host ")
	}
	return agentproto.Errorf(agentproto.CodeDecisionConfiguration, "%s: %s (the decision's endpoint; Stratos does not fall back to %s)", source, msg, notTaken).
		WithDetails(map[string]any{"field": source}).Wrap(err)
}
