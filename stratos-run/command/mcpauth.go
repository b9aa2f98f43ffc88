package command

import (
	"context"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/mcpauth"
)

// checkMCPAuth fails the run before its body when an MCP server the
// workflow declares with oauth lacks a usable login (docs/mcp.md, "Before
// a run").
func (x *execution) checkMCPAuth(ctx context.Context) error {
	tokens, err := mcpauth.DefaultTokens()
	if err != nil {
		return clierr.New(runapi.CodeMCPAuthRequired, "%v", err).Wrap(err)
	}
	return x.target.CheckMCPAuth(ctx, tokens)
}
