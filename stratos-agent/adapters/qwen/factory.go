package qwen

import (
	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapters/acp"
)

// Options configure the factory (the kit's adapter.Options; the binary
// comes from $STRATOS_QWEN or PATH, found by Initialize).
type Options = adapter.Options

// New is the qwen adapter.Factory with production options.
func New(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
	return NewFactory(Options{})(spec, onEvent, hooks)
}

// NewFactory returns an adapter.Factory with opts. The factory validates
// what needs no process (effort, tool selection); the binary,
// authentication and model are checked by Initialize.
func NewFactory(opts Options) adapter.Factory {
	opts = opts.WithDefaults()
	return func(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
		if err := Capabilities.CheckEffort(Harness, spec); err != nil {
			return nil, err
		}
		excluded, err := Tools.Natives(spec.Tools)
		if err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: %v", spec.Name, err).Wrap(err)
		}
		l := launcher{opts: opts, excluded: excluded, hooks: adapter.HasToolHooks(hooks)}
		return acp.New(acp.Agent{Harness: Harness, Launch: l.launch, Refusal: refusal, UpdateUsage: usage, MetaToolName: toolName, Aside: aside,
			NativeHooks: nativeHooks}, opts, spec, onEvent, hooks), nil
	}
}
