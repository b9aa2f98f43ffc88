// Package clierr defines the error envelope and exit codes that every Stratos
// tool uses, so that people and programs can rely on one contract:
//
//	{"error":{"code":"…","message":"…","details":{…}}}
//
// Codes are stable strings (snake_case); messages are for people.
package clierr

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Exit codes shared by every tool.
const (
	ExitOK          = 0   // success
	ExitFailed      = 1   // the operation failed (build failure, workflow error, agent error)
	ExitUsage       = 2   // usage or invalid input (bad flags, schema failure, unknown workflow)
	ExitInterrupted = 130 // interrupted by SIGINT/SIGTERM
)

// CodeInternal is the code of an error that carries none of its own.
const CodeInternal = "internal"

// Error is an error with a stable code, an exit code and optional details.
type Error struct {
	Code    string         // stable, machine-readable, e.g. "workflow_not_found"
	Message string         // human-readable
	Details map[string]any // optional structured context
	Exit    int            // process exit code this error maps to
	Err     error          // optional wrapped cause
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// New returns an Error that exits with code 1.
func New(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Exit: ExitFailed}
}

// Usage returns an Error that exits with code 2 (usage or invalid input).
func Usage(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Exit: ExitUsage}
}

// WithDetails sets details and returns e for chaining.
func (e *Error) WithDetails(d map[string]any) *Error {
	e.Details = d
	return e
}

// Wrap sets the cause and returns e for chaining.
func (e *Error) Wrap(err error) *Error {
	e.Err = err
	return e
}

// As converts any error into an *Error: an *Error anywhere in the chain is
// returned as is; anything else becomes code "internal" with exit 1.
func As(err error) *Error {
	var ce *Error
	if errors.As(err, &ce) {
		return ce
	}
	return &Error{Code: CodeInternal, Message: err.Error(), Exit: ExitFailed, Err: err}
}

// ExitCode returns the exit code for err (0 for nil).
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	return As(err).Exit
}

// Envelope is the JSON shape of an error on stdout.
type Envelope struct {
	Error EnvelopeBody `json:"error"`
}

// EnvelopeBody is the inside of an Envelope.
type EnvelopeBody struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// WriteJSON writes err as one JSON envelope line to w.
func WriteJSON(w io.Writer, err error) error {
	ce := As(err)
	env := Envelope{Error: EnvelopeBody{Code: ce.Code, Message: ce.Message, Details: ce.Details}}
	b, mErr := json.Marshal(env)
	if mErr != nil {
		return mErr
	}
	_, wErr := w.Write(append(b, '\n'))
	return wErr
}

// WriteText writes err for people: "<tool>: <message>" on one line.
func WriteText(w io.Writer, tool string, err error) {
	fmt.Fprintf(w, "%s: %s\n", tool, As(err).Message)
}
