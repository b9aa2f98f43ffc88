package preparation

import (
	"context"
	"errors"
	"os"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// CheckMCPAuth is the check before the run body: every MCP server the
// workflow declares with oauth must have a login whose access token has at
// least mcpauth.MinValidity left, after a refresh when it has less. A run
// that would fail its first authenticated request fails now instead, with
// the command that fixes it. (A child workflow is checked when it is
// invoked.) Declarations that do not parse or resolve are left to the
// steps that use them, which report them with their own codes.
func (t *Target) CheckMCPAuth(ctx context.Context, tokens mcpauth.Tokens) error {
	servers, _ := mcpdecl.Parse(t.Workflow.Manifest.Sections["mcp"])
	for _, name := range servers.Names() {
		decl := servers[name]
		if decl.OAuth == nil {
			continue
		}
		server, err := decl.Resolve(t.Workflow.Dir, os.LookupEnv)
		if err != nil {
			continue
		}
		if _, err := tokens.ForServer(ctx, t.Name(), server, true); err != nil {
			return authRequired(t.Name(), name, err)
		}
	}
	return nil
}

func authRequired(workflow, server string, err error) error {
	details := map[string]any{"workflow": workflow, "server": server, "login": mcpauth.LoginCommand(workflow, server)}
	var ce *mcpauth.CredentialError
	if errors.As(err, &ce) {
		details["reason"] = ce.Reason
	}
	return clierr.New(runapi.CodeMCPAuthRequired, "workflow %s: %v", workflow, err).WithDetails(details).Wrap(err)
}

// oauthServers names the MCP servers w declares with oauth.
func oauthServers(w *discovery.Workflow) []string {
	servers, _ := mcpdecl.Parse(w.Manifest.Sections["mcp"])
	out := []string{}
	for _, name := range servers.Names() {
		if servers[name].OAuth != nil {
			out = append(out, name)
		}
	}
	return out
}
