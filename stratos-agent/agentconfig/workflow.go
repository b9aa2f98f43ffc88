package agentconfig

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Workflow is what one workflow's workflow.yaml contributes to its agents:
// the named configurations and the names of its MCP servers.
type Workflow struct {
	Name string
	Dir  string
	File string
	// Agents maps configuration IDs to their configurations.
	Agents map[string]agentproto.AgentConfig
	// MCPServers holds the keys of the mcp.servers map.
	MCPServers map[string]bool
}

// LoadWorkflow reads and validates dir/workflow.yaml's agents section. The
// problems name the file and the path of each invalid field; references to
// MCP servers and built-in tools are checked too.
func LoadWorkflow(v *Validator, dir string) (*Workflow, []Problem) {
	m, mp := manifest.Load(dir)
	file := filepath.Join(dir, manifest.FileName)
	if len(mp) > 0 {
		out := make([]Problem, len(mp))
		for i, p := range mp {
			out[i] = Problem{File: file, Path: p.Field, Message: strings.TrimPrefix(p.Message, file+": ")}
		}
		return nil, out
	}
	w := &Workflow{Name: m.Name, Dir: dir, File: file, Agents: map[string]agentproto.AgentConfig{}, MCPServers: mcpServers(m.Sections["mcp"])}
	section, ok := m.Sections["agents"]
	if !ok || section == nil {
		return w, nil
	}
	if problems := v.Section(file, section); len(problems) > 0 {
		return nil, problems
	}
	b, err := json.Marshal(section)
	if err == nil {
		err = json.Unmarshal(b, &w.Agents)
	}
	if err != nil {
		return nil, []Problem{{File: file, Path: "agents", Message: err.Error()}}
	}
	var problems []Problem
	for _, id := range slices.Sorted(maps.Keys(w.Agents)) {
		problems = append(problems, v.CheckReferences(w.Agents[id], w.MCPServers, file, "agents."+id)...)
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return w, nil
}

// mcpServers returns the keys of an mcp section's servers map. The MCP
// section's own shape is validated by its owner; here an unexpected shape
// simply declares no servers.
func mcpServers(section any) map[string]bool {
	out := map[string]bool{}
	m, _ := section.(map[string]any)
	servers, _ := m["servers"].(map[string]any)
	for name := range servers {
		out[name] = true
	}
	return out
}

// CheckReferences checks the names one configuration refers to: MCP servers
// (keys of the workflow's mcp.servers) and built-in tool names.
func (v *Validator) CheckReferences(c agentproto.AgentConfig, servers map[string]bool, file, path string) []Problem {
	var out []Problem
	if c.AllowedMcps != nil {
		for _, name := range *c.AllowedMcps {
			if !servers[name] {
				out = append(out, Problem{File: file, Path: path + ".allowedMcps",
					Message: fmt.Sprintf("unknown MCP server %q (the workflow's mcp.servers declares: %s)", name, list(servers))})
			}
		}
	}
	var sel tools.Selection
	if c.AllowedTools != nil {
		sel.AllowedTools = *c.AllowedTools
	}
	if c.DisallowedTools != nil {
		sel.DisallowedTools = *c.DisallowedTools
	}
	if err := v.tools.Validate(sel); err != nil {
		field := "allowedTools"
		if ute, ok := err.(*tools.UnknownToolError); ok {
			field = ute.Field
		}
		out = append(out, Problem{File: file, Path: path + "." + field, Message: err.Error()})
	}
	return out
}

func list(set map[string]bool) string {
	if len(set) == 0 {
		return "none"
	}
	return strings.Join(slices.Sorted(maps.Keys(set)), ", ")
}
