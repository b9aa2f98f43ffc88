package host

import (
	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// checkTools checks an agent's tool selection against every registered
// harness's tools (a name no harness has is a configuration error, whichever
// harness selection picks later), and against its explicit harness's own
// rules (OpenCode removes edit and write only together).
func (h *Host) checkTools(name string, spec adapter.Spec) error {
	t := h.registry.Tools()
	err := t.Validate(spec.Tools)
	if err == nil {
		if d, known := t.Harness(spec.Harness); known == nil {
			_, err = d.Removed(spec.Tools)
		}
	}
	if err != nil {
		return agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: %v", name, err).Wrap(err)
	}
	return nil
}

// ollamaHarnesses are the registered harnesses that reach Ollama with its
// own model names: an agent with provider ollama must name one of them.
func (h *Host) ollamaHarnesses() []string {
	return h.registry.ReachingProvider(ollama.Provider)
}
