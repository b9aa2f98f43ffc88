// Package agentapi is the contract of stratos-agent's commands (tools list,
// validate-config, serve; the agent protocol itself is shared/agentproto):
// its error codes and the JSON result of `stratos-agent validate-config`.
package agentapi

import "github.com/stratoscli/stratos/shared/contract/errcode"

// Error codes of stratos-agent's commands.
const (
	CodeUnknownHarness = "unknown_harness"
	CodeHomeUnknown    = "home_unknown"
)

// Codes describes the error codes of stratos-agent's commands.
func Codes() []errcode.Code {
	return []errcode.Code{
		errcode.Usage(CodeUnknownHarness, "`stratos tools list`: no harness of that name"),
		errcode.Failed(CodeHomeUnknown, "`stratos-agent serve`: the home directory cannot be found"),
	}
}
