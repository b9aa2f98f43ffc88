package acpgeneric

import (
	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapters/acp"
)

// Options configure the factory (the kit's adapter.Options; Environ is
// the host environment the configuration's ${NAME} references read).
type Options = adapter.Options

// NewFactory returns an adapter.Factory with opts. Everything the agent
// asks for that the protocol cannot deliver is a configuration error here,
// when the agent is made, before any process starts.
func NewFactory(opts Options) adapter.Factory {
	opts = opts.WithDefaults()
	return func(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
		if err := check(spec, hooks); err != nil {
			return nil, err
		}
		env, err := resolveEnv(spec.ACP.Env, opts.Environ())
		if err != nil {
			return nil, configError(spec, "%v", err).Wrap(err)
		}
		l := launcher{opts: opts, agent: *spec.ACP, env: env}
		return acp.New(acp.Agent{Harness: Harness, Launch: l.launch, Refusal: refusal}, opts, spec, onEvent, hooks), nil
	}
}

// check refuses what no ACP agent can be relied on to honour.
func check(spec adapter.Spec, hooks adapter.Hooks) error {
	switch {
	case spec.ACP == nil:
		return configError(spec, "harness %s needs the agent to run: acp: {command, args, env} in its configuration", Harness)
	case adapter.HasToolHooks(hooks):
		return configError(spec, "harness %s cannot run beforeToolCall or afterToolCall hooks: %s", Harness, Capabilities.ToolHooksUnsupported)
	case spec.Provider != "":
		return configError(spec, "harness %s cannot choose provider %s: ACP has no provider; configure the agent's own through acp.args or acp.env", Harness, spec.Provider).
			WithDetails(map[string]any{"harness": Harness, "provider": spec.Provider})
	case spec.Effort != "":
		return configError(spec, "harness %s cannot set effort %q: ACP has no reasoning effort; pass the agent's own option in acp.args", Harness, spec.Effort).
			WithDetails(map[string]any{"harness": Harness, "effort": spec.Effort})
	case spec.Tools.AllowedTools != nil || spec.Tools.DisallowedTools != nil:
		return configError(spec, "harness %s cannot select built-in tools (allowedTools, disallowedTools): an ACP agent's tools are its own and the protocol cannot remove one", Harness)
	case hasInstructions(spec) && spec.ACP.SystemPromptFileVar == "":
		return configError(spec, "harness %s cannot deliver the agent's system prompt or worktree context: ACP has none; set acp.systemPromptFileVar to the variable through which the agent reads a system-prompt file", Harness)
	}
	return nil
}

func configError(spec adapter.Spec, format string, args ...any) *agentproto.Error {
	return agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: "+format, append([]any{spec.Name}, args...)...).
		WithDetails(map[string]any{"harness": Harness})
}
