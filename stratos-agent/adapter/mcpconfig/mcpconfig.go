// Package mcpconfig resolves the MCP servers an agent selects (its
// allowedMcps) from the workflow's workflow.yaml (mcp.servers.<name>, read
// by shared/mcpdecl) into one typed configuration every harness adapter
// translates into its own format. Environment references (${NAME}) are
// resolved here, when the agent starts, so credentials never sit in the
// workflow's files.
package mcpconfig

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/shared/mcpauth"
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

// OAuth makes a server declared with oauth usable by a harness: it checks
// the server's login and rewrites out (resolved from server) so the
// harness's requests carry a token.
type OAuth func(workflow string, server mcpdecl.Server, out *Server) error

// FromWorkflow is the Resolver that reads workflow.yaml and the process
// environment; OAuth servers get the stored token as a bearer header.
func FromWorkflow(workflowDir string, names []string) ([]Server, error) {
	return Resolve(workflowDir, names, os.LookupEnv, BearerHeader)
}

// WithOAuth is FromWorkflow with oauth handling OAuth servers (the agent
// host routes them through its relay).
func WithOAuth(oauth OAuth) Resolver {
	return func(workflowDir string, names []string) ([]Server, error) {
		return Resolve(workflowDir, names, os.LookupEnv, oauth)
	}
}

// BearerHeader adds the server's current access token (refreshed when it
// has less than five minutes left) as an Authorization header. The token
// is then fixed for the harness's life; the agent host uses its relay
// instead, which renews it per request.
func BearerHeader(workflow string, server mcpdecl.Server, out *Server) error {
	tokens, err := mcpauth.DefaultTokens()
	if err != nil {
		return err
	}
	rec, err := tokens.ForServer(context.Background(), workflow, server, false)
	if err != nil {
		return err
	}
	out.Headers = maps.Clone(out.Headers)
	if out.Headers == nil {
		out.Headers = map[string]string{}
	}
	out.Headers["Authorization"] = "Bearer " + rec.AccessToken
	return nil
}

// Resolve returns the selected servers with references resolved through
// lookup, and servers declared with oauth prepared by oauth. An undeclared
// or invalid server, or an unset variable, is a configuration error naming
// the file and the field; a server without a usable login is one naming
// the `stratos mcp login` command.
func Resolve(workflowDir string, names []string, lookup mcpdecl.Lookup, oauth OAuth) ([]Server, error) {
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
		if r.OAuth != nil {
			if err := oauth(m.Name, r, &s); err != nil {
				return nil, agentproto.Errorf(agentproto.CodeConfiguration, "%s: %v", file, err).
					WithDetails(map[string]any{"server": name, "login": mcpauth.LoginCommand(m.Name, name)})
			}
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
