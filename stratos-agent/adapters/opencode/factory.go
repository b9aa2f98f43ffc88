package opencode

import (
	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// Options configure the factory (the kit's adapter.Options; the binary
// comes from $STRATOS_OPENCODE or PATH, found by Initialize).
type Options = adapter.Options

// New is the opencode adapter.Factory with production options.
func New(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
	return NewFactory(Options{})(spec, onEvent, hooks)
}

// NewFactory returns an adapter.Factory with opts. The factory validates
// what needs no process (effort, tool selection, including the edit/write
// pairing OpenCode's single edit permission imposes); the binary,
// authentication, provider and model are checked by Initialize.
func NewFactory(opts Options) adapter.Factory {
	opts = opts.WithDefaults()
	return func(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
		if err := Capabilities.CheckEffort(Harness, spec); err != nil {
			return nil, err
		}
		denied, err := Tools.Natives(spec.Tools)
		if err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: %v", spec.Name, err).Wrap(err)
		}
		return newSession(opts, spec, onEvent, hooks, denied), nil
	}
}
