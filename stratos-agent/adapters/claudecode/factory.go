package claudecode

import (
	"os/exec"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// Options configure the factory (the kit's adapter.Options; the binary
// comes from $STRATOS_CLAUDE or PATH, found by Initialize).
type Options = adapter.Options

// New is the claude-code adapter.Factory with production options.
func New(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
	return NewFactory(Options{})(spec, onEvent, hooks)
}

// NewFactory returns an adapter.Factory with opts. The factory validates
// what needs no process (effort, tool selection); the binary,
// authentication and catalog are checked by Initialize.
func NewFactory(opts Options) adapter.Factory {
	opts = opts.WithDefaults()
	return func(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
		if err := Capabilities.CheckEffort(Harness, spec); err != nil {
			return nil, err
		}
		if len(spec.Models) > 1 {
			return nil, agentproto.Errorf(agentproto.CodeInternal, "agent %q: the claude-code adapter serves one model at a time; the host's selector walks the list %v", spec.Name, spec.Models)
		}
		disallowed, err := Tools.Natives(spec.Tools)
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
		return "", rejection.New(rejection.HarnessUnavailable,
			"harness claude-code is not installed: %s not found (install @anthropic-ai/claude-code so `claude` is on PATH, or set %s to the binary)", name, EnvBinary).
			WithDetails(map[string]any{"harness": Harness, "binary": name})
	}
	return path, nil
}
