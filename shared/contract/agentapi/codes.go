// Package agentapi is the contract of stratos-agent's commands (tools list,
// mcp tools/login/logout/status, validate-config, serve; the agent protocol
// itself is shared/agentproto): its error codes and the JSON result of
// `stratos-agent validate-config`.
package agentapi

import "github.com/stratoscli/stratos/shared/contract/errcode"

// Error codes of stratos-agent's commands.
const (
	CodeUnknownHarness = "unknown_harness"
	CodeHomeUnknown    = "home_unknown"
	// CodeUnknownProvider: `stratos provider status` names a provider it
	// cannot diagnose.
	CodeUnknownProvider = "unknown_provider"
	// CodeOllamaHostInvalid: OLLAMA_HOST is not a plain HTTP(S) origin
	// (the same value as shared/ollama's CodeHostInvalid).
	CodeOllamaHostInvalid = "ollama_host_invalid"
	// CodeSkillTargetInvalid: `stratos skill install` was given both
	// --project and --user.
	CodeSkillTargetInvalid = "skill_target_invalid"
	// CodeSkillWriteFailed: `stratos skill install` could not write the skill.
	CodeSkillWriteFailed = "skill_write_failed"
	// MCP codes of `stratos mcp` (docs/mcp.md).
	CodeMCPConfigInvalid   = "mcp_config_invalid"
	CodeMCPEnvMissing      = "mcp_env_missing"
	CodeMCPServerUnknown   = "mcp_server_unknown"
	CodeMCPDiscoveryFailed = "mcp_discovery_failed"
	// CodeMCPConnectTimeout: `stratos mcp tools`: a server did not answer
	// within its connectTimeout.
	CodeMCPConnectTimeout = "mcp_connect_timeout"
	// OAuth codes of `stratos mcp login/logout/status`.
	CodeMCPAuthRequired     = "mcp_auth_required"
	CodeMCPNotOAuth         = "mcp_not_oauth"
	CodeMCPLoginFailed      = "mcp_login_failed"
	CodeMCPLoginTimeout     = "mcp_login_timeout"
	CodeMCPCredentialsError = "mcp_credentials_error"
)

// Codes describes the error codes of stratos-agent's commands.
func Codes() []errcode.Code {
	return []errcode.Code{
		errcode.Usage(CodeUnknownHarness, "`stratos tools list`: no harness of that name"),
		errcode.Failed(CodeHomeUnknown, "`stratos-agent serve`: the home directory cannot be found"),
		errcode.Usage(CodeUnknownProvider, "`stratos provider status`: no local provider of that name (it knows ollama)"),
		errcode.Usage(CodeSkillTargetInvalid, "`stratos skill install`: both --project and --user"),
		errcode.Failed(CodeSkillWriteFailed, "`stratos skill install`: the skill's directory or files cannot be written; `details.path` names it"),
		errcode.Usage(CodeOllamaHostInvalid, "`stratos provider status ollama`: OLLAMA_HOST is not an HTTP(S) origin without credentials, path, query or fragment"),
		errcode.Usage(CodeMCPConfigInvalid, "`stratos mcp`: the workflow.yaml mcp section is invalid (details.problems: field and message of each)"),
		errcode.Failed(CodeMCPEnvMissing, "`stratos mcp`: a ${NAME} reference of an MCP server names an unset or empty environment variable (details.variable, details.server)"),
		errcode.Usage(CodeMCPServerUnknown, "`stratos mcp tools <workflow> <server>`: the workflow declares no such MCP server"),
		errcode.Failed(CodeMCPDiscoveryFailed, "`stratos mcp tools`: an MCP server could not be started, reached or listed (details.server)"),
		errcode.Failed(CodeMCPConnectTimeout, "`stratos mcp tools`: an MCP server did not answer within its connect timeout (details.server, details.timeout, details.field: the connectTimeout to raise)"),
		errcode.Failed(CodeMCPAuthRequired, "`stratos mcp tools`: a server declared with oauth has no usable login (details.server, details.login: the command to run)"),
		errcode.Usage(CodeMCPNotOAuth, "`stratos mcp login/logout`: the named server is not an HTTP server declared with oauth (details.server)"),
		errcode.Failed(CodeMCPLoginFailed, "`stratos mcp login`: discovery, registration, authorization or the token exchange failed (details.server); nothing was stored"),
		errcode.Failed(CodeMCPLoginTimeout, "`stratos mcp login`: the browser did not come back to the loopback redirect within --timeout; nothing was stored"),
		errcode.Failed(CodeMCPCredentialsError, "`stratos mcp login/logout/status`: the credentials store under ~/.stratos/mcp-auth cannot be read or written"),
	}
}

// Tool is the name of the binary this package is the contract of.
const Tool = "stratos-agent"
