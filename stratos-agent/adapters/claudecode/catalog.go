package claudecode

import (
	"context"
	"sort"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
)

// backendFlags returns, per provider, the environment that selects that
// backend in Claude Code (empty for the Anthropic API).
func backendFlags(ctx context.Context, c catalog.Catalog) (map[string]map[string]string, error) {
	providers, err := c.Providers(ctx, Harness)
	if err != nil {
		return nil, err
	}
	out := make(map[string]map[string]string, len(providers))
	for name, p := range providers {
		out[name] = p.Env
	}
	return out, nil
}

// backendKeys lists every backend flag the mapping knows, sorted.
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
