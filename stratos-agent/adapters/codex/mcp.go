package codex

import (
	"path/filepath"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/manifest"
)

// MCPResolver returns the Codex mcp_servers table of each selected MCP
// server.
type MCPResolver func(workflowDir string, names []string) (map[string]map[string]any, error)

// WorkflowMCPServers reads the selected servers from the workflow's
// workflow.yaml (mcp.servers.<name>: a command with args and env, or a url
// with headers) and renders each as a Codex [mcp_servers.<name>] table.
// Every selected server's tools are approved (agents run noninteractively:
// nobody could answer an approval prompt); author hooks still decide.
func WorkflowMCPServers(workflowDir string, names []string) (map[string]map[string]any, error) {
	out := map[string]map[string]any{}
	if len(names) == 0 {
		return out, nil
	}
	m, problems := manifest.Load(workflowDir)
	if len(problems) > 0 {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "harness codex: %s", problems[0].Message)
	}
	section, _ := m.Sections["mcp"].(map[string]any)
	servers, _ := section["servers"].(map[string]any)
	file := filepath.Join(workflowDir, manifest.FileName)
	for _, name := range names {
		cfg, ok := servers[name].(map[string]any)
		if !ok {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "%s: mcp.servers.%s is not declared as an object", file, name)
		}
		table := map[string]any{"default_tools_approval_mode": "approve"}
		switch {
		case cfg["command"] != nil:
			copyKeys(table, cfg, map[string]string{"command": "command", "args": "args", "env": "env"})
		case cfg["url"] != nil:
			copyKeys(table, cfg, map[string]string{"url": "url", "headers": "http_headers"})
		default:
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "%s: mcp.servers.%s needs a command (stdio) or a url (http)", file, name)
		}
		out[name] = table
	}
	return out, nil
}

func copyKeys(dst, src map[string]any, names map[string]string) {
	for from, to := range names {
		if v, ok := src[from]; ok {
			dst[to] = v
		}
	}
}
