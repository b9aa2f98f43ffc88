package opencode

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
)

// agentName is the Stratos-defined primary agent every prompt runs as.
const agentName = "stratos"

// serverConfig is everything session-specific in the isolated
// configuration (OPENCODE_CONFIG_CONTENT).
type serverConfig struct {
	model    model
	provider map[string]any // provider.<id>, nil for OpenCode's own
	// prompt is the fixed system prompt: the agent's, replacing OpenCode's
	// default prompt (OpenCode still adds its <env> block).
	prompt string
	denied []string // permission keys set to deny
	mcp    []mcpconfig.Server
	plugin *pluginRef // nil: no plugin
}

// pluginRef is the generated plugin and its options.
type pluginRef struct {
	File  string // absolute path
	URL   string // the hook server
	Token string
	After bool // ask about each call's result: the author has a tool hook
}

// render is the configuration JSON. OpenCode evaluates permission rules in
// key order, last match winning, so the permission object is written in
// order: everything allowed (nobody could answer a question), then the
// removed tools denied.
func (c serverConfig) render() ([]byte, error) {
	cfg := map[string]any{
		"autoupdate": false,
		"share":      "disabled",
		// No git snapshot of the working directory per step: Stratos owns
		// the checkout.
		"snapshot":          false,
		"model":             c.model.String(),
		"small_model":       c.model.String(),
		"default_agent":     agentName,
		"enabled_providers": []string{c.model.ProviderID},
		"agent":             map[string]any{agentName: c.agent()},
	}
	if c.provider != nil {
		cfg["provider"] = map[string]any{c.model.ProviderID: c.provider}
	}
	if len(c.mcp) > 0 {
		cfg["mcp"] = mcpTables(c.mcp)
	}
	if c.plugin != nil {
		opts := map[string]any{"secrets": serverSecrets}
		if c.plugin.URL != "" {
			opts["url"], opts["token"] = c.plugin.URL, c.plugin.Token
		}
		if c.plugin.After {
			opts["after"] = true
		}
		cfg["plugin"] = []any{[]any{"file://" + c.plugin.File, opts}}
	}
	body, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	// Splice the ordered permission object into the sorted rest.
	var out bytes.Buffer
	out.Write(body[:len(body)-1])
	out.WriteString(`,"permission":`)
	out.Write(c.permissions())
	out.WriteString("}")
	return out.Bytes(), nil
}

func (c serverConfig) agent() map[string]any {
	a := map[string]any{"mode": "primary", "description": "The Stratos agent of this session"}
	if strings.TrimSpace(c.prompt) != "" {
		a["prompt"] = c.prompt
	}
	return a
}

// permissions is the ordered permission object.
func (c serverConfig) permissions() []byte {
	var b bytes.Buffer
	b.WriteString(`{"*":"allow","external_directory":"allow","doom_loop":"allow"`)
	for _, d := range c.denied {
		k, _ := json.Marshal(d)
		b.WriteString(",")
		b.Write(k)
		b.WriteString(`:"deny"`)
	}
	b.WriteString("}")
	return b.Bytes()
}

// sessionRules are the denied permissions again as the session's own
// ruleset, so a tool stays removed whatever OpenCode merges above the
// configuration.
func sessionRules(denied []string) []map[string]string {
	out := make([]map[string]string, 0, len(denied))
	for _, d := range denied {
		out = append(out, map[string]string{"permission": d, "pattern": "*", "action": "deny"})
	}
	return out
}

// mcpTables renders the selected MCP servers as OpenCode mcp entries:
// local (a command line, environment and working directory) or remote
// (url and headers, OAuth off: nobody could complete a browser login).
// Only selected servers are configured, so only their tools are offered.
func mcpTables(servers []mcpconfig.Server) map[string]any {
	out := make(map[string]any, len(servers))
	for _, s := range servers {
		if s.Command != "" {
			t := map[string]any{"type": "local", "command": localCommand(s), "enabled": true}
			if len(s.Env) > 0 {
				t["environment"] = s.Env
			}
			if s.Cwd != "" { // absolute; without it OpenCode starts the server in the session's directory
				t["cwd"] = s.Cwd
			}
			out[s.Name] = t
			continue
		}
		t := map[string]any{"type": "remote", "url": s.URL, "enabled": true, "oauth": false}
		if len(s.Headers) > 0 {
			t["headers"] = s.Headers
		}
		out[s.Name] = t
	}
	return out
}

// localCommand is the command line OpenCode runs for a local MCP server.
// OpenCode starts local servers with its whole environment under the
// declared one, and no plugin hook reaches that spawn (shell.env covers
// only the agent's commands). So the server starts through sh, which
// removes the server's secrets and then execs it (same process, same
// arguments, PATH lookup of a bare name as OpenCode would do): the MCP
// server sees what the agent's commands see. A secret's name the
// declaration sets itself is the author's value and stays.
func localCommand(s mcpconfig.Server) []string {
	var unset []string
	for _, k := range serverSecrets {
		if _, declared := s.Env[k]; !declared {
			unset = append(unset, k)
		}
	}
	if len(unset) == 0 {
		return append([]string{s.Command}, s.Args...)
	}
	script := "unset " + strings.Join(unset, " ") + `; exec "$0" "$@"`
	return append([]string{"/bin/sh", "-c", script, s.Command}, s.Args...)
}

// systemPrompt is the fixed system prompt followed, for an agent in a
// worktree, by the worktree context.
func systemPrompt(spec adapter.Spec) string {
	switch {
	case spec.HarnessContext == "":
		return spec.SystemPrompt
	case spec.SystemPrompt == "":
		return spec.HarnessContext
	}
	return spec.SystemPrompt + "\n\n" + spec.HarnessContext
}
