package agentproto

import (
	"errors"
	"fmt"
)

// Agent error codes. The SDK maps each to a typed error class; they are a
// contract with workflow authors (err.code) and must stay stable.
const (
	CodeConfiguration           = "configuration"             // invalid or unknown configuration (configId, MCP, tool, effort, harness, …)
	CodeTemplateVariableMissing = "template_variable_missing" // a template uses a variable nobody supplied
	CodePromptFile              = "prompt_file"               // a prompt or template file cannot be read or parsed
	CodeInitialization          = "initialization"            // the harness could not start the session
	CodeAuthentication          = "authentication"            // the harness has no usable credentials
	CodeModelUnavailable        = "model_unavailable"         // the model cannot be used through the harness
	CodeHarnessUnavailable      = "harness_unavailable"       // the harness is not installed or not available in this version
	CodeExecution               = "execution"                 // the harness failed while executing a prompt
	CodeCancelled               = "cancelled"                 // cancel() or workflow cleanup stopped the call
	CodeConcurrentUse           = "concurrent_use"            // execute() while the same agent object is executing
	CodeAdmission               = "admission"                 // agents.maxOutstanding calls are already running or queued
	CodeStructuredOutput        = "structured_output"         // the output does not match outputSchema
	CodeHookFailed              = "hook_failed"               // an author hook threw or rejected
	CodeContextClosed           = "context_closed"            // the owning execution has ended
	CodeProtocol                = "protocol"                  // a malformed message (a bug), or one over MaxMessageBytes
	CodeUnscriptedAgent         = "unscripted_agent"          // a test case's agent would run on a harness other than test
	CodeInternal                = "internal"                  // anything else
)

// ErrorCodes lists every code (the TypeScript file must list the same).
func ErrorCodes() []string {
	return []string{
		CodeAdmission, CodeAuthentication, CodeCancelled, CodeConcurrentUse, CodeConfiguration, CodeContextClosed,
		CodeExecution, CodeHarnessUnavailable, CodeHookFailed, CodeInitialization, CodeInternal,
		CodeModelUnavailable, CodePromptFile, CodeProtocol, CodeStructuredOutput, CodeTemplateVariableMissing,
		CodeUnscriptedAgent,
	}
}

// JSON-RPC error codes.
const (
	RPCParseError     = -32700
	RPCInvalidRequest = -32600
	RPCMethodNotFound = -32601
	RPCInvalidParams  = -32602
	RPCAgentError     = -32000
)

// ErrorData is the data member of an agent error response.
type ErrorData struct {
	Code    string         `json:"code"`
	Details map[string]any `json:"details,omitempty"`
}

// Error is an agent error with a stable code. The host returns it from every
// operation; the connection turns it into an error response.
type Error struct {
	Code    string
	Message string
	Details map[string]any
	Err     error
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithDetails sets details and returns e.
func (e *Error) WithDetails(d map[string]any) *Error {
	e.Details = d
	return e
}

// Wrap sets the cause and returns e.
func (e *Error) Wrap(err error) *Error {
	e.Err = err
	return e
}

// CodeOf returns the code of the first *Error in err's chain, or CodeInternal.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}
