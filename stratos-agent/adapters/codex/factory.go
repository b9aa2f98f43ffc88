package codex

import (
	"io"
	"os"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Harness is the harness name agents configure.
const Harness = "codex"

// EnvBinary names the codex binary to use (the native binary or the npm
// wrapper, whose native binary is then used); default: `codex` on PATH.
const EnvBinary = "STRATOS_CODEX"

// Efforts are the reasoning efforts Codex 0.171 accepts
// (model_reasoning_effort; ).
var Efforts = []string{"none", "minimal", "low", "medium", "high", "xhigh"}

// Options configure the factory. The zero value is production: the binary
// from $STRATOS_CODEX or PATH, the inherited environment, the catalog
// through stratos-models, MCP servers from workflow.yaml.
type Options struct {
	Log hclog.Logger
	// Environ is the environment Codex inherits (default os.Environ).
	Environ func() []string
	// Catalog resolves models (default: stratos-models).
	Catalog Catalog
	// MCPServers resolves the selected MCP servers (default:
	// WorkflowMCPServers).
	MCPServers MCPResolver
	// Stderr receives the catalog tool's diagnostics (default os.Stderr).
	Stderr io.Writer
}

// New is the codex adapter.Factory with production options.
func New(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
	return NewFactory(Options{})(spec, onEvent, hooks)
}

// NewFactory returns an adapter.Factory with opts. The factory validates
// what needs no process (effort, tool selection); the binary,
// authentication, provider and catalog are checked by Initialize.
func NewFactory(opts Options) adapter.Factory {
	if opts.Log == nil {
		opts.Log = hclog.NewNullLogger()
	}
	if opts.Environ == nil {
		opts.Environ = os.Environ
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	if opts.Catalog == nil {
		opts.Catalog = siblingCatalog{stderr: opts.Stderr}
	}
	if opts.MCPServers == nil {
		opts.MCPServers = WorkflowMCPServers
	}
	return func(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
		if err := checkEffort(spec); err != nil {
			return nil, err
		}
		removed, err := tools.CodexConfigOverrides(spec.Tools)
		if err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: %v", spec.Name, err).Wrap(err)
		}
		return newSession(opts, spec, onEvent, hooks, removed), nil
	}
}

func checkEffort(spec adapter.Spec) error {
	if spec.Effort == "" {
		return nil
	}
	for _, e := range Efforts {
		if e == spec.Effort {
			return nil
		}
	}
	return agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: effort %q is not supported by harness codex (supported: %v)",
		spec.Name, spec.Effort, Efforts).WithDetails(map[string]any{"effort": spec.Effort, "harness": Harness})
}
