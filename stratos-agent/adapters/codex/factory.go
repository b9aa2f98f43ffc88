package codex

import (
	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Harness is the harness name agents configure.
const Harness = "codex"

// EnvBinary names the codex binary to use (the native binary or the npm
// wrapper, whose native binary is then used); default: `codex` on PATH.
const EnvBinary = "STRATOS_CODEX"

// Capabilities are what the codex adapter supports. Efforts are the
// reasoning efforts Codex 0.171 accepts (model_reasoning_effort). Codex's
// PostToolUse "block" replaces what the model reads, failed calls
// included. outputSchema constrains the final message; Stratos validates
// it. Background commands (a command the model left running past its
// yield time) are cleaned by Cancel through
// thread/backgroundTerminals/clean.
var Capabilities = adapter.Capabilities{
	Efforts:                  []string{"none", "minimal", "low", "medium", "high", "xhigh"},
	ExecutesTools:            true,
	HooksModifyArguments:     true,
	AfterHookReplacesFailure: true,
	StructuredOutput:         adapter.StructuredOutputSchema,
	BackgroundWork:           true,
	CancelsBackgroundWork:    true,
	SelectsModels:            true,
	ChecksAuthentication:     true,
	ReportsUsage:             true,
}

// Registration is the harness as the agent host registers it.
func Registration(opts Options) adapter.Harness {
	return adapter.Harness{Name: Harness, New: NewFactory(opts), Capabilities: Capabilities}
}

// Options configure the factory (the kit's adapter.Options; the binary
// comes from $STRATOS_CODEX or PATH, found by Initialize).
type Options = adapter.Options

// New is the codex adapter.Factory with production options.
func New(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
	return NewFactory(Options{})(spec, onEvent, hooks)
}

// NewFactory returns an adapter.Factory with opts. The factory validates
// what needs no process (effort, tool selection); the binary,
// authentication, provider and catalog are checked by Initialize.
func NewFactory(opts Options) adapter.Factory {
	opts = opts.WithDefaults()
	return func(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
		if err := Capabilities.CheckEffort(Harness, spec); err != nil {
			return nil, err
		}
		removed, err := tools.CodexConfigOverrides(spec.Tools)
		if err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: %v", spec.Name, err).Wrap(err)
		}
		return newSession(opts, spec, onEvent, hooks, removed), nil
	}
}
