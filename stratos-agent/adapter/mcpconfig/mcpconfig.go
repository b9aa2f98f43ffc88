// Package mcpconfig resolves the MCP servers an agent selects (its
// allowedMcps) from the workflow's workflow.yaml (mcp.servers.<name>) into
// one typed configuration every harness adapter translates into its own
// format. Until the MCP section's format is specified further, a server is
// the stdio or HTTP shape every harness shares.
package mcpconfig

import (
	"encoding/json"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/manifest"
)

// Server is one resolved MCP server.
type Server struct {
	Name string `json:"-"`
	// Type is the transport as written ("stdio", "http", "sse"; empty:
	// stdio with a command, http with a url).
	Type string `json:"type,omitempty"`
	// Command, Args and Env start a stdio server.
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// URL and Headers reach an HTTP server.
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// Resolver returns the selected servers of a workflow, in names' order.
type Resolver func(workflowDir string, names []string) ([]Server, error)

// FromWorkflow is the Resolver that reads workflow.yaml.
func FromWorkflow(workflowDir string, names []string) ([]Server, error) {
	if len(names) == 0 {
		return nil, nil
	}
	m, problems := manifest.Load(workflowDir)
	if len(problems) > 0 {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "%s", problems[0].Message)
	}
	section, _ := m.Sections["mcp"].(map[string]any)
	declared, _ := section["servers"].(map[string]any)
	file := filepath.Join(workflowDir, manifest.FileName)
	out := make([]Server, 0, len(names))
	for _, name := range names {
		s, err := decode(declared[name])
		if err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "%s: mcp.servers.%s: %v", file, name, err)
		}
		s.Name = name
		out = append(out, s)
	}
	return out, nil
}

type problem string

func (p problem) Error() string { return string(p) }

func decode(v any) (Server, error) {
	var s Server
	if _, ok := v.(map[string]any); !ok {
		return s, problem("is not declared as an object")
	}
	b, err := json.Marshal(v)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, problem("has a field of the wrong type: " + err.Error())
	}
	if s.Command == "" && s.URL == "" {
		return s, problem("needs a command (stdio) or a url (http)")
	}
	return s, nil
}
