// The agent host protocol as the SDK sees it: JSON-RPC 2.0 messages between
// this process and `stratos-agent serve`, one JSON object per line. The Go
// package shared/agentproto documents every method; a Go test there parses
// this file and fails when a method, an error code or a field differs from
// the Go types. Keep one field per line, and every type a named interface.
// @internal
export const ProtocolVersion = 1;
/** Every method name (SDK → host and host → SDK). */
export const Methods = {
    initialize: "initialize",
    agentExecute: "agent.execute",
    agentCancel: "agent.cancel",
    agentClose: "agent.close",
    executionClose: "execution.close",
    shutdown: "shutdown",
    hookBeforeToolCall: "hook.beforeToolCall",
    hookAfterToolCall: "hook.afterToolCall",
    hookOnStart: "hook.onStart",
    event: "event",
};
/** Every agent error code (error.data.code of an error response). */
export const ErrorCodes = [
    "admission",
    "authentication",
    "cancelled",
    "concurrent_use",
    "configuration",
    "context_closed",
    "execution",
    "harness_unavailable",
    "hook_failed",
    "initialization",
    "internal",
    "model_unavailable",
    "prompt_file",
    "protocol",
    "structured_output",
    "template_variable_missing",
];
/** The JSON-RPC error code of agent errors. */
export const RPCAgentError = -32000;
