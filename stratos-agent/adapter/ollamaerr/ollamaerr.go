// Package ollamaerr turns a failure of shared/ollama (reading OLLAMA_HOST,
// checking a model against the server's inventory) into the agent error
// the workflow sees, the same way for every harness that reaches Ollama.
package ollamaerr

import (
	"errors"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// ForAgent is err as agent's error on harness, the server named in its
// details: a missing or ineligible model is a model_unavailable rejection
// (the next model of the agent's list may serve); a bad OLLAMA_HOST or
// model name is a configuration error, an unreachable or broken server an
// initialization error, both final.
func ForAgent(harness, agent string, err error) error {
	var oe *ollama.Error
	if !errors.As(err, &oe) {
		return agentproto.Errorf(agentproto.CodeInitialization, "agent %q: harness %s: %v", agent, harness, err).Wrap(err)
	}
	details := oe.Details()
	details["harness"], details["provider"] = harness, ollama.Provider
	switch oe.Code {
	case ollama.CodeModelMissing, ollama.CodeModelIneligible:
		return rejection.New(rejection.ModelUnavailable, "agent %q: %v", agent, err).WithDetails(details).Wrap(err)
	case ollama.CodeHostInvalid, ollama.CodeInvalidName:
		return agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: %v", agent, err).WithDetails(details).Wrap(err)
	}
	return agentproto.Errorf(agentproto.CodeInitialization, "agent %q: %v", agent, err).WithDetails(details).Wrap(err)
}
