// Package mcpconfig resolves the MCP servers an agent selects (its
// allowedMcps) from the workflow's workflow.yaml (mcp.servers.<name>, read
// by shared/mcpdecl) into one typed configuration every harness adapter
// translates into its own format. Environment references (${NAME}) are
// resolved here, when the agent starts, so credentials never sit in the
// workflow's files.
package mcpconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// Server is one resolved MCP server.
type Server struct {
	Name string `json:"-"`
	// Type is the transport: "stdio" or "http" (streamable HTTP).
	Type string `json:"type,omitempty"`
	// Command, Args, Env and Cwd start a stdio server; Cwd is absolute, and
	// empty unless workflow.yaml declares one.
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	// URL and Headers reach an HTTP server.
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// Resolver returns the selected servers of a workflow, in names' order.
type Resolver func(workflowDir string, names []string) ([]Server, error)

// FromWorkflow is the Resolver that reads workflow.yaml and the process
// environment.
func FromWorkflow(workflowDir string, names []string) ([]Server, error) {
	return Resolve(workflowDir, names, os.LookupEnv)
}

// Resolve returns the selected servers with references resolved through
// lookup. An undeclared or invalid server, or an unset variable, is a
// configuration error naming the file and the field.
func Resolve(workflowDir string, names []string, lookup mcpdecl.Lookup) ([]Server, error) {
	if len(names) == 0 {
		return nil, nil
	}
	m, problems := manifest.Load(workflowDir)
	if len(problems) > 0 {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "%s", problems[0].Message)
	}
	declared, declProblems := mcpdecl.Parse(m.Sections["mcp"])
	file := filepath.Join(workflowDir, manifest.FileName)
	out := make([]Server, 0, len(names))
	for _, name := range names {
		d, ok := declared[name]
		if !ok {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "%s: %s", file, undeclared(name, declProblems))
		}
		r, err := d.Resolve(workflowDir, lookup)
		if err != nil {
			var missing *mcpdecl.MissingVariableError
			e := agentproto.Errorf(agentproto.CodeConfiguration, "%s: %v", file, err)
			if errors.As(err, &missing) {
				e.Details = map[string]any{"server": name, "variable": missing.Variable}
			}
			return nil, e
		}
		s := Server{Name: name, Type: r.Transport, Command: r.Command, Args: r.Args, Env: r.Env, URL: r.URL, Headers: r.Headers}
		// Only a declared cwd reaches the harness: without one, the harness
		// starts the server where it starts its own tools (the agent's
		// working directory), as it always has.
		if d.Cwd != "" {
			s.Cwd = r.Cwd
		}
		out = append(out, s)
	}
	return out, nil
}

// undeclared says why name has no valid declaration.
func undeclared(name string, problems []mcpdecl.Problem) string {
	prefix := "mcp.servers." + name
	var own []string
	for _, p := range problems {
		if p.Field == prefix || strings.HasPrefix(p.Field, prefix+".") || strings.HasPrefix(p.Field, prefix+"[") {
			own = append(own, p.String())
		}
	}
	if len(own) > 0 {
		return strings.Join(own, "; ")
	}
	return prefix + ": MCP server is not declared"
}
