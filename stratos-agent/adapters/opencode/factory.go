package opencode

import (
	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Harness is the harness name agents configure.
const Harness = "opencode"

// EnvBinary names the opencode binary to use; default: `opencode` on PATH.
const EnvBinary = "STRATOS_OPENCODE"

// Capabilities are what the opencode adapter supports. Efforts are the
// names OpenCode gives its reasoning variants across providers; which of
// them a model has depends on the provider and the model, so Initialize
// checks the effort against the model's own variants (checkServer) and
// each prompt names it as its variant. A plugin's tool.execute.before mutates the arguments in place;
// tool.execute.after replaces what the model reads, failed commands
// included (OpenCode reports a non-zero exit as a completed call). The
// native `format` json_schema makes the model answer through a
// StructuredOutput tool; Stratos validates the value. OpenCode's bash tool
// runs commands to their end, so there is no background work.
var Capabilities = adapter.Capabilities{
	Efforts:                  []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"},
	ExecutesTools:            true,
	HooksModifyArguments:     true,
	AfterHookReplacesFailure: true,
	StructuredOutput:         adapter.StructuredOutputSchema,
	SelectsModels:            true,
	ChecksAuthentication:     true,
	ReportsUsage:             true,
}

// Registration is the harness as the agent host registers it.
func Registration(opts Options) adapter.Harness {
	return adapter.Harness{Name: Harness, New: NewFactory(opts), Capabilities: Capabilities}
}

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
		denied, err := tools.OpenCodeDeniedPermissions(spec.Tools)
		if err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: %v", spec.Name, err).Wrap(err)
		}
		return newSession(opts, spec, onEvent, hooks, denied), nil
	}
}
