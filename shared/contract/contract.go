// Package contract lists the contracts of Stratos's tools: for each, the
// error codes its --json error envelopes carry. The codes and each tool's
// --json result types live in the tool's own package below this one
// (errcode for the codes every tool shares), imported by the tool that
// produces them and by the tools that read them; docs/errors.md's code
// table is generated from Tools (scripts/gen-docs).
package contract

import (
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/shared/contract/toolchainapi"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
)

// Tool is one contract's error codes.
type Tool struct {
	Title    string // a heading, e.g. stratos-worktree
	Package  string // the contract package, e.g. worktreeapi
	Commands string // who returns these codes, for people
	Codes    []errcode.Code
}

// Tools lists every contract, the shared codes first.
func Tools() []Tool {
	return []Tool{
		{"Every command", "errcode", "every command", errcode.Common()},
		{"Finding workflows", "discoverapi", "`stratos list`, `stratos-discover`, and every command that finds a workflow", discoverapi.Codes()},
		{"The toolchain", "toolchainapi", "`stratos-toolchain`, and every command that needs node, npm or TypeScript", toolchainapi.Codes()},
		{"stratos-build", "buildapi", "`stratos build`, `describe`, `schema`, `clean`, `new` (stratos-build), and `stratos run` when it builds first", buildapi.Codes()},
		{"stratos-run", "runapi", "`stratos run`, `stratos runs`, `stratos test`, `stratos serve`, `stratos mcp serve` (stratos-run)", runapi.Codes()},
		{"stratos-agent", "agentapi", "`stratos tools list`, `stratos mcp tools`, `login`, `logout`, `status`, `stratos provider status`, `stratos-agent`", agentapi.Codes()},
		{"stratos-worktree", "worktreeapi", "`stratos worktree` (stratos-worktree)", worktreeapi.Codes()},
		{"stratos-temporal", "temporalapi", "`stratos worker`, `stratos run --engine temporal` (stratos-temporal)", temporalapi.Codes()},
		{"stratos-models", "modelsapi", "`stratos models` (stratos-models)", modelsapi.Codes()},
	}
}
