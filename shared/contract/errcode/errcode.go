// Package errcode describes the stable error codes of Stratos's tools: the
// error.code of a --json error envelope (shared/clierr). Each tool's codes
// live as named constants in that tool's contract package beside its --json
// result types (shared/contract/<tool>api), so the tool that returns a code
// and the tool that reacts to it share one constant; this package holds the
// description type and the codes every tool can return.
package errcode

import "github.com/stratoscli/stratos/shared/clierr"

// Code describes one error code for people: docs/errors.md's table is
// generated from these descriptions (scripts/gen-docs).
type Code struct {
	Name    string // the code itself, lower_snake_case
	Exit    int    // the exit code an error with this code comes with
	Meaning string // one line: what went wrong
}

// Failed describes a code that comes with exit 1.
func Failed(name, meaning string) Code {
	return Code{Name: name, Exit: clierr.ExitFailed, Meaning: meaning}
}

// Usage describes a code that comes with exit 2 (usage or invalid input).
func Usage(name, meaning string) Code {
	return Code{Name: name, Exit: clierr.ExitUsage, Meaning: meaning}
}
