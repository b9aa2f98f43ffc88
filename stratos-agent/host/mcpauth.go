package host

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// authenticate is the check the runtime makes before a child workflow's
// run body (the top-level workflow's is made by `stratos run` before the
// runtime starts): every server the workflow declares with oauth has a
// login with at least five minutes left, after a refresh when needed. It
// starts no connection.
func (d *directClients) authenticate(ctx context.Context, w agentproto.WorkflowRef) error {
	if !filepath.IsAbs(w.Dir) {
		return agentproto.Errorf(agentproto.CodeProtocol, "mcp.authenticate: workflow.dir must be an absolute path, got %q", w.Dir)
	}
	servers, err := mcpdecl.Load(w.Dir)
	if err != nil {
		return agentproto.Errorf(agentproto.CodeMCPConfiguration, "%v", err)
	}
	tokens, err := d.oauthTokens()
	if err != nil {
		return agentproto.Errorf(agentproto.CodeMCPConfiguration, "%v", err)
	}
	for _, name := range servers.Names() {
		if servers[name].OAuth == nil {
			continue
		}
		server, err := resolveServer(w.Dir, name)
		if err != nil {
			return err
		}
		if _, err := tokens.ForServer(ctx, w.Name, server, true); err != nil {
			details := map[string]any{"server": name, "login": mcpauth.LoginCommand(w.Name, name)}
			var ce *mcpauth.CredentialError
			if errors.As(err, &ce) {
				details["reason"] = ce.Reason
			}
			return agentproto.Errorf(agentproto.CodeMCPConfiguration, "workflow %s: %v", w.Name, err).WithDetails(details)
		}
	}
	return nil
}

func (d *directClients) oauthTokens() (mcpauth.Tokens, error) {
	if d.tokens != nil {
		return *d.tokens, nil
	}
	return mcpauth.DefaultTokens()
}
