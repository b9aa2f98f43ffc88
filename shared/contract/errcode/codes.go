package errcode

import "github.com/stratoscli/stratos/shared/clierr"

// Codes every tool can return.
const (
	CodeUsage                = "usage"
	CodeInterrupted          = "interrupted"
	CodeInternal             = clierr.CodeInternal
	CodeNotImplemented       = "not_implemented"
	CodeToolNotFound         = "tool_not_found"
	CodeToolFailed           = "tool_failed"
	CodeToolProtocolMismatch = "tool_protocol_mismatch"
)

// Common describes the codes every tool can return.
func Common() []Code {
	return []Code{
		Usage(CodeUsage, "a bad flag or argument; with --json stdout carries only this error"),
		{Name: CodeInterrupted, Exit: clierr.ExitInterrupted, Meaning: "SIGINT or SIGTERM stopped the command; `details.phase` names the phase where one applies"},
		Failed(CodeInternal, "an unexpected failure (a bug, or an error without a code of its own)"),
		Failed(CodeNotImplemented, "the command's work has not been built yet"),
		Failed(CodeToolNotFound, "a Stratos tool this one runs is not installed beside it"),
		Failed(CodeToolFailed, "a Stratos tool this one runs failed without a JSON error of its own"),
		Failed(CodeToolProtocolMismatch, "a Stratos tool this one runs speaks another version of the tool-call protocol (a binary of another install); `details` name both binaries and versions"),
	}
}
