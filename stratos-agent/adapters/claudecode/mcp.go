package claudecode

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/manifest"
)

// MCPResolver returns the Claude Code configuration of each selected MCP
// server ({"type","command","args","env"} or {"type","url","headers"}).
type MCPResolver func(workflowDir string, names []string) (map[string]map[string]any, error)

// mcpKeys are the server fields Claude Code's --mcp-config understands.
var mcpKeys = []string{"type", "command", "args", "env", "url", "headers"}

// WorkflowMCPServers reads the selected servers from the workflow's
// workflow.yaml (mcp.servers.<name>), keeping the fields Claude Code's
// --mcp-config understands. Until the MCP issue defines the section's
// format, this is the stdio/http shape every harness shares.
func WorkflowMCPServers(workflowDir string, names []string) (map[string]map[string]any, error) {
	out := map[string]map[string]any{}
	if len(names) == 0 {
		return out, nil
	}
	m, problems := manifest.Load(workflowDir)
	if len(problems) > 0 {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "harness claude-code: %s", problems[0].Message)
	}
	section, _ := m.Sections["mcp"].(map[string]any)
	servers, _ := section["servers"].(map[string]any)
	file := filepath.Join(workflowDir, manifest.FileName)
	for _, name := range names {
		cfg, ok := servers[name].(map[string]any)
		if !ok {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "%s: mcp.servers.%s is not declared as an object", file, name)
		}
		entry := map[string]any{}
		for _, k := range mcpKeys {
			if v, ok := cfg[k]; ok {
				entry[k] = v
			}
		}
		if entry["command"] == nil && entry["url"] == nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "%s: mcp.servers.%s needs a command (stdio) or a url (http)", file, name)
		}
		out[name] = entry
	}
	return out, nil
}

// writeMCPConfig writes {"mcpServers": servers} to a private file for
// --mcp-config: server environments and headers may hold credentials, which
// must not appear on the command line (visible in ps).
func writeMCPConfig(dir string, servers map[string]map[string]any) (string, error) {
	if len(servers) == 0 {
		return "", nil
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "mcp-config.json")
	if err := atomicfile.WriteFile(path, b, atomicfile.Private); err != nil {
		return "", fmt.Errorf("MCP configuration: %w", err)
	}
	return path, nil
}
