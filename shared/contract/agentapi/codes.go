// Package agentapi is the contract of stratos-agent's commands (tools list,
// mcp, validate-config, serve; the agent protocol itself is shared/agentproto):
// its error codes and the JSON result of `stratos-agent validate-config`.
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
	// MCP codes of `stratos mcp` (docs/mcp.md).
	CodeMCPConfigInvalid   = "mcp_config_invalid"
	CodeMCPEnvMissing      = "mcp_env_missing"
	CodeMCPServerUnknown   = "mcp_server_unknown"
	CodeMCPDiscoveryFailed = "mcp_discovery_failed"
)

// Codes describes the error codes of stratos-agent's commands.
func Codes() []errcode.Code {
	return []errcode.Code{
		errcode.Usage(CodeUnknownHarness, "`stratos tools list`: no harness of that name"),
		errcode.Failed(CodeHomeUnknown, "`stratos-agent serve`: the home directory cannot be found"),
		errcode.Usage(CodeUnknownProvider, "`stratos provider status`: no local provider of that name (it knows ollama)"),
		errcode.Usage(CodeOllamaHostInvalid, "`stratos provider status ollama`: OLLAMA_HOST is not an HTTP(S) origin without credentials, path, query or fragment"),
		errcode.Usage(CodeMCPConfigInvalid, "`stratos mcp`: the workflow.yaml mcp section is invalid (details.problems: field and message of each)"),
		errcode.Failed(CodeMCPEnvMissing, "`stratos mcp`: a ${NAME} reference of an MCP server names an unset or empty environment variable (details.variable, details.server)"),
		errcode.Usage(CodeMCPServerUnknown, "`stratos mcp tools <workflow> <server>`: the workflow declares no such MCP server"),
		errcode.Failed(CodeMCPDiscoveryFailed, "`stratos mcp tools`: an MCP server could not be started, reached or listed (details.server)"),
	}
}
