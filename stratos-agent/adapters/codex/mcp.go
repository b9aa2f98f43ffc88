package codex

import "github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"

// mcpTables renders the selected MCP servers as Codex [mcp_servers.<name>]
// tables: a command with args, env and cwd (stdio), or a url with headers
// (streamable HTTP). Every selected server's tools are approved (agents run
// noninteractively: nobody could answer an approval prompt); author hooks
// still decide.
func mcpTables(servers []mcpconfig.Server) map[string]map[string]any {
	out := make(map[string]map[string]any, len(servers))
	for _, s := range servers {
		t := map[string]any{"default_tools_approval_mode": "approve"}
		if s.Command != "" {
			t["command"] = s.Command
			if len(s.Args) > 0 {
				t["args"] = s.Args
			}
			if len(s.Env) > 0 {
				t["env"] = s.Env
			}
			if s.Cwd != "" {
				t["cwd"] = s.Cwd
			}
		} else {
			t["url"] = s.URL
			if len(s.Headers) > 0 {
				t["http_headers"] = s.Headers
			}
		}
		out[s.Name] = t
	}
	return out
}
