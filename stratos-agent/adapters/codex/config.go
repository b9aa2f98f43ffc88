package codex

import (
	"strings"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// threadConfig is everything session-specific, sent in thread/start (and
// again in thread/resume). Codex applies it like `-c` overrides, so the
// isolated home needs no config.toml.
type threadConfig struct {
	spec      adapter.Spec
	provider  provider
	model     string // native model; "" = Codex's default
	mcp       map[string]map[string]any
	hooks     *hookEndpoint // nil: no hook server
	removed   []setting
	developer string
}

// params is the thread/start request.
func (c threadConfig) params() map[string]any {
	p := map[string]any{
		"cwd":            c.spec.WorkingDirectory,
		"modelProvider":  c.provider.ID,
		"approvalPolicy": "never",
		// No Codex sandbox, as Claude Code runs in Stratos: an agent in a
		// worktree must write the repository's .git (outside its working
		// directory) to commit, and tools may need the network. Author
		// hooks restrict tool calls.
		"sandbox":               "danger-full-access",
		"developerInstructions": c.developer,
		"config":                c.config(),
	}
	if c.model != "" {
		p["model"] = c.model
	}
	return p
}

func (c threadConfig) config() map[string]any {
	cfg := map[string]any{
		// A down provider must fail the turn, not retry forever.
		"features": map[string]any{"unbounded_connection_retries": false},
		// The working directory stays untrusted so the repository's own
		// .codex/config.toml and hooks are not loaded, and Codex does not
		// write a trust entry.
		"projects": map[string]any{c.spec.WorkingDirectory: map[string]any{"trust_level": "untrusted"}},
		// Skills outside the Codex home (~/.agents/skills) would add ambient
		// instructions.
		"skills": map[string]any{"include_instructions": false},
		// Agents run noninteractively: no user answers request_user_input,
		// so the model is not offered it.
		"tools": map[string]any{"experimental_request_user_input": map[string]any{"enabled": false}},
	}
	if c.provider.Table != nil {
		cfg["model_providers"] = map[string]any{c.provider.ID: c.provider.Table}
	}
	servers := map[string]any{}
	for name, t := range c.mcp {
		servers[name] = t
	}
	if c.hooks != nil {
		servers[hookServerName] = c.hooks.serverTable()
		cfg["hooks"] = c.hooks.hookTables()
		// Only these generated hooks run: the isolated home has no others
		// and the project layer is untrusted.
		cfg["bypass_hook_trust"] = true
	}
	if len(servers) > 0 {
		cfg["mcp_servers"] = servers
	}
	if c.spec.Effort != "" {
		cfg["model_reasoning_effort"] = c.spec.Effort
	}
	for k, v := range c.provider.Config {
		setPath(cfg, k, v)
	}
	for _, s := range c.removed {
		setPath(cfg, s.Key, s.Value)
	}
	return cfg
}

// setPath sets a dotted key ("features.shell_tool") in nested maps.
func setPath(m map[string]any, key string, v any) {
	parts := strings.Split(key, ".")
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[parts[len(parts)-1]] = v
}

// developerInstructions is the fixed system prompt followed, for an agent
// in a worktree, by the worktree context: sent once per thread as Codex's
// developer instructions.
func developerInstructions(spec adapter.Spec) string {
	switch {
	case spec.HarnessContext == "":
		return spec.SystemPrompt
	case spec.SystemPrompt == "":
		return spec.HarnessContext
	}
	return spec.SystemPrompt + "\n\n" + spec.HarnessContext
}
