package claudecode

import (
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Harness is the harness name agents configure.
const Harness = "claude-code"

// EnvBinary names the claude binary to use; default: `claude` on PATH.
const EnvBinary = "STRATOS_CLAUDE"

// Efforts are the reasoning efforts Claude Code 2.1.332 accepts (--effort).
// The CLI ignores any other value with a warning, so the adapter rejects
// them as configuration errors instead.
var Efforts = []string{"low", "medium", "high", "xhigh", "max"}

// Options configure the factory. The zero value is production: the binary
// from $STRATOS_CLAUDE or PATH, the inherited environment, the catalog
// through stratos-models, MCP servers from workflow.yaml.
type Options struct {
	Log hclog.Logger
	// Environ is the environment the CLI inherits (default os.Environ).
	Environ func() []string
	// Catalog resolves models and backend flags (default: stratos-models).
	Catalog Catalog
	// MCPServers resolves the selected MCP servers (default:
	// WorkflowMCPServers).
	MCPServers MCPResolver
	// Stderr receives the catalog tool's diagnostics (default os.Stderr).
	Stderr io.Writer
}

// New is the claude-code adapter.Factory with production options.
func New(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
	return NewFactory(Options{})(spec, onEvent, hooks)
}

// NewFactory returns an adapter.Factory with opts. The factory validates
// what needs no process (effort, tool selection); the binary,
// authentication and catalog are checked by Initialize.
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
		if spec.Effort != "" && !slices.Contains(Efforts, spec.Effort) {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: effort %q is not supported by harness claude-code (supported: %s)",
				spec.Name, spec.Effort, strings.Join(Efforts, ", ")).WithDetails(map[string]any{"effort": spec.Effort, "harness": Harness})
		}
		disallowed, err := tools.ClaudeDisallowedTools(spec.Tools)
		if err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: %v", spec.Name, err).Wrap(err)
		}
		return newSession(opts, spec, onEvent, hooks, disallowed), nil
	}
}

// findBinary returns the claude binary: $STRATOS_CLAUDE, else PATH.
func findBinary(env []string) (string, error) {
	name := "claude"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, EnvBinary+"="); ok && v != "" {
			name = v
		}
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", agentproto.Errorf(agentproto.CodeHarnessUnavailable,
			"harness claude-code is not installed: %s not found (install @anthropic-ai/claude-code so `claude` is on PATH, or set %s to the binary)", name, EnvBinary).
			WithDetails(map[string]any{"harness": Harness, "binary": name})
	}
	return path, nil
}
