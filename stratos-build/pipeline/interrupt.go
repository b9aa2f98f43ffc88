package pipeline

import (
	"context"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
)

// CodeInterrupted is the error code of a preparation stopped by SIGINT or
// SIGTERM (exit 130).
const CodeInterrupted = errcode.CodeInterrupted

// The phases a preparation can be interrupted in, as an interrupted error
// names them (details.phase).
const (
	PhaseLock         = "waiting for the build lock"
	PhaseToolchain    = "installing the toolchain"
	PhaseDependencies = "installing dependencies"
	PhaseCompile      = "compiling"
	PhaseLoad         = "loading the definition"
	PhasePrepare      = "preparing"
	PhaseMCP          = "discovering MCP tools"
)

// Interrupted returns the error of a preparation stopped in phase because
// ctx was cancelled: code interrupted, exit 130, the phase in the message
// and in details.phase.
func Interrupted(ctx context.Context, phase, format string, args ...any) *clierr.Error {
	msg := "interrupted while " + phase
	if format != "" {
		msg += " (" + sprintf(format, args...) + ")"
	}
	ce := clierr.New(CodeInterrupted, "%s", msg).WithDetails(map[string]any{"phase": phase})
	ce.Exit = clierr.ExitInterrupted
	if err := ctx.Err(); err != nil {
		ce = ce.Wrap(err)
	}
	return ce
}
