package opencode

import (
	"context"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// Provider IDs with Stratos-specific handling.
const (
	providerOpenAI    = "openai"
	providerAnthropic = "anthropic"
	// providerOllama is a Stratos-managed OpenAI-compatible provider:
	// OpenCode's catalog has no local Ollama provider.
	providerOllama = "ollama"
)

// baseURLVars are the standard base-URL variables, per provider, that reach
// the isolated configuration's provider options (OpenCode's bundled SDKs
// would not all read them by themselves), so users can point OpenCode at a
// gateway as they point Claude Code and Codex. Anthropic's convention has
// no /v1; the AI SDK's baseURL includes it.
var baseURLVars = map[string]struct {
	name   string
	suffix string
}{
	providerOpenAI:    {name: "OPENAI_BASE_URL"},
	providerAnthropic: {name: "ANTHROPIC_BASE_URL", suffix: "/v1"},
}

// model is the session's model as OpenCode names it.
type model struct {
	ProviderID string
	ModelID    string
}

func (m model) String() string { return m.ProviderID + "/" + m.ModelID }

// resolveModel is the session's model (the host's selector gives each
// adapter at most one) as OpenCode's provider and model IDs, from the
// catalog.
func (s *session) resolveModel(ctx context.Context) (model, error) {
	if len(s.spec.Models) == 0 {
		return model{}, agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: harness opencode needs a model (models: in workflow.yaml)", s.spec.Name).
			WithDetails(map[string]any{"harness": Harness})
	}
	cands, err := s.opts.Catalog.Candidates(ctx, catalog.Query{Models: s.spec.Models[:1], Harness: Harness, Provider: s.spec.Provider})
	if err != nil {
		return model{}, err
	}
	if len(cands) == 0 {
		return model{}, rejection.New(rejection.ModelUnavailable, "agent %q: model %s cannot be used through opencode", s.spec.Name, s.spec.Models[0]).
			WithDetails(map[string]any{"harness": Harness, "model": s.spec.Models[0]})
	}
	c := cands[0]
	pid := c.Native.ProviderID
	if pid == "" {
		pid = c.Provider
	}
	id := c.NativeID
	if p, rest, ok := strings.Cut(c.Native.Model, "/"); ok && p == pid {
		id = rest
	}
	return model{ProviderID: pid, ModelID: id}, nil
}

// providerTable is the isolated configuration's provider.<id> table for m,
// nil when OpenCode's built-in definition serves unchanged. (Provider
// ollama's table comes from the server's inventory: prepareOllama.)
func providerTable(env []string, m model) map[string]any {
	v, ok := baseURLVars[m.ProviderID]
	if !ok {
		return nil
	}
	base := strings.TrimRight(lookupEnv(env, v.name), "/")
	if base == "" {
		return nil
	}
	if v.suffix != "" && !strings.HasSuffix(base, v.suffix) {
		base += v.suffix
	}
	return map[string]any{"options": map[string]any{"baseURL": base}}
}
