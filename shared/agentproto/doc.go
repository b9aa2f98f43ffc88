// Package agentproto is the one description of the agent host protocol: the
// JSON-RPC 2.0 conversation between the SDK (@stratoscli/stratos, running
// inside the workflow's node process) and `stratos-agent serve`, the agent
// host of one top-level execution.
//
// The SDK's TypeScript view of the same types, shared/sdk/src/agent-protocol.ts,
// is generated from the Go types below by package protogen (scripts/build-sdk);
// a test there fails when the checked-in file is stale, so the two sides
// cannot drift apart.
//
// # Transport
//
// node starts `stratos-agent serve` lazily, when the first agent of a
// top-level execution executes, with pipes on the host's stdin and stdout.
// Each message is one JSON object on one line (UTF-8, "\n"-terminated), in
// both directions; the host's stderr carries logs only. Both sides send
// requests (with an "id") and notifications (without one); ids are unique
// per sender. The host exits when its stdin closes (the node process died or
// finished), closing every session and killing every harness process group it
// started, so no harness outlives its workflow.
//
// # SDK → host
//
//   - initialize (InitializeParams → InitializeResult): first message. It names
//     the top-level execution, the run record directory (events.jsonl is
//     appended there) and, optionally, settings; without them the host reads
//     ~/.stratos/settings.json.
//   - agent.execute (ExecuteParams → ExecuteResult): one execute() of one agent
//     object. It carries the object's creation fields, the owning execution's
//     invocation overrides and workflow, the prompt source and its variables.
//     The first successful execute resolves the configuration (creation >
//     overrides > workflow.yaml), validates it and initializes the harness;
//     later executes of the same agentId continue that conversation and ignore
//     the configuration they carry (it is fixed). The result is {text} without
//     an outputSchema and {value} with one.
//   - agent.cancel (CancelParams, notification): signal-only cancellation of
//     one call (numbered by ExecuteParams.Call), queued or running; that
//     call's execute answers with the "cancelled" error. The conversation
//     stays usable. A cancel may overtake its execute request. An orphaned
//     cancel (the SDK lost its stratos run) is one the workflow did not ask
//     for: an engine that runs executes beyond one attempt of the code may
//     leave the call running.
//   - agent.close (AgentRef → CloseResult): cleanup of one agent (cancel, wait,
//     release harness resources). Repeated closes are harmless; an agent never
//     executed is simply forgotten. A close failure is an error response, which
//     the SDK reports softly.
//   - execution.close (ExecutionRef → CloseResult): closes every agent of one
//     execution (not its children: each child execution closes its own) and
//     rejects later executes for it with "context_closed".
//   - shutdown (no params → {}): closes everything; the host exits after the
//     response.
//   - decision.ask (DecisionParams → DecisionResult) and decision.cancel
//     (DecisionRef, notification): a decision, answered by a model directly
//     (decision.go).
//
// # Host → SDK
//
//   - hook.beforeToolCall (ToolCallParams → BeforeToolCallResult or null)
//   - hook.afterToolCall (AfterToolCallParams → AfterToolCallResult or null)
//   - hook.onStart (LifecycleParams → null): the call was admitted and the
//     harness is about to receive the prompt.
//   - mcp.elicit (MCPElicitParams → MCPElicitResult): a server asks a direct
//     client connected with MCPConnectParams.Elicitation for input; the
//     workflow's handler answers (mcp.go).
//   - mcp.resourceChanged (MCPResourceChangedParams, notification): a
//     subscribed resource of a direct client changed, or its server's list
//     of resources did (mcp.go).
//
// The host calls a hook only when ExecuteParams.Hooks names it. A hook that
// throws answers with an error response; the host then fails the invocation
// with code "hook_failed" (the SDK rethrows the author's own error). onComplete
// and onError run in the SDK: only the SDK sees the final outcome (its Zod
// validation of structured output is the last step), and onError's
// AggregateError rule is simplest where the error is thrown.
//
//   - event (Event, notification): only when InitializeParams.Events is true.
//     Every event is appended to <runDir>/events.jsonl either way.
//
// # Errors
//
// Error responses use JSON-RPC code -32000 for agent errors, with
// error.data = ErrorData{code, details}: code is one of the Code* constants,
// mapped by the SDK to its typed errors. -32600/-32601/-32602/-32700 keep their
// JSON-RPC meanings (protocol bugs, not author errors).
package agentproto
