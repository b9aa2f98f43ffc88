package host

import (
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// checkProvider applies the rules of provider ollama before any
// discovery: an explicit harness that can reach it, and no effort (this
// integration uses the model's defaults and invents no mapping from hosted
// reasoning levels to local thinking). reaching are the registered
// harnesses that reach Ollama with its own model names.
func checkProvider(spec adapter.Spec, reaching []string) error {
	if spec.Provider != ollama.Provider {
		return nil
	}
	details := map[string]any{"provider": spec.Provider, "harness": spec.Harness}
	switch {
	case !slices.Contains(reaching, spec.Harness):
		what := "no harness"
		if spec.Harness != "" {
			what = "harness " + spec.Harness
		}
		return agentproto.Errorf(agentproto.CodeConfiguration,
			"agent %q: provider ollama needs an explicit harness: %s (it has %s); Stratos picks no harness for Ollama model names",
			spec.Name, strings.Join(reaching, " or "), what).WithDetails(details)
	case spec.Effort != "":
		details["effort"] = spec.Effort
		return agentproto.Errorf(agentproto.CodeConfiguration,
			"agent %q: provider ollama takes no effort (%q): Ollama agents use the model's defaults; remove effort", spec.Name, spec.Effort).
			WithDetails(details)
	}
	return nil
}
