// Package agentapi is the contract of stratos-agent's commands (tools list,
// validate-config, serve; the agent protocol itself is shared/agentproto):
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
)

// Codes describes the error codes of stratos-agent's commands.
func Codes() []errcode.Code {
	return []errcode.Code{
		errcode.Usage(CodeUnknownHarness, "`stratos tools list`: no harness of that name"),
		errcode.Failed(CodeHomeUnknown, "`stratos-agent serve`: the home directory cannot be found"),
		errcode.Usage(CodeUnknownProvider, "`stratos provider status`: no local provider of that name (it knows ollama)"),
		errcode.Usage(CodeOllamaHostInvalid, "`stratos provider status ollama`: OLLAMA_HOST is not an HTTP(S) origin without credentials, path, query or fragment"),
	}
}
