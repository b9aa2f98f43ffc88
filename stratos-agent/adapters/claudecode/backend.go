package claudecode

import (
	"sort"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// backendFlags returns, per provider of Claude Code's own rules
// (Selection), the environment that selects that backend (empty for the
// Anthropic API). The rules are the ones the host sends to selection and
// the packaged provider mapping copies, so the adapter reads them here
// rather than asking stratos-models for its copy.
func backendFlags() map[string]map[string]string {
	out := make(map[string]map[string]string, len(Selection.Providers))
	for name, p := range Selection.Providers {
		out[name] = p.Env
	}
	return out
}

// backendKeys lists every backend flag the rules know, sorted.
func backendKeys(flags map[string]map[string]string) []string {
	set := map[string]bool{}
	for _, env := range flags {
		for k := range env {
			set[k] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// inspectBackend returns the provider Claude Code is configured for in env:
// the provider whose backend flags are all on, else the one without flags
// (the Anthropic API or a native login). Several matching backends are a
// configuration error rather than a guess.
func inspectBackend(flags map[string]map[string]string, env []string) (string, error) {
	var on []string
	plain := ""
	for p, vars := range flags {
		if len(vars) == 0 {
			plain = p
			continue
		}
		all := true
		for k := range vars {
			all = all && envOn(env, k)
		}
		if all {
			on = append(on, p)
		}
	}
	sort.Strings(on)
	switch len(on) {
	case 0:
		return plain, nil
	case 1:
		return on[0], nil
	}
	return "", agentproto.Errorf(agentproto.CodeConfiguration,
		"harness claude-code: the environment selects several backends (%v); set only one, or set the agent's provider", on)
}
