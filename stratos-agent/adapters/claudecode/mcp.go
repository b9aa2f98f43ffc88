package claudecode

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
)

// mcpServerConfig is one server as Claude Code's --mcp-config reads it.
type mcpServerConfig struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// writeMCPConfig writes {"mcpServers": servers} to a private file for
// --mcp-config: server environments and headers may hold credentials, which
// must not appear on the command line (visible in ps).
func writeMCPConfig(dir string, servers []mcpconfig.Server) (string, error) {
	if len(servers) == 0 {
		return "", nil
	}
	native := make(map[string]mcpServerConfig, len(servers))
	for _, s := range servers {
		native[s.Name] = mcpServerConfig{Type: s.Type, Command: s.Command, Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": native})
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "mcp-config.json")
	if err := atomicfile.WriteFile(path, b, atomicfile.Private); err != nil {
		return "", fmt.Errorf("MCP configuration: %w", err)
	}
	return path, nil
}
