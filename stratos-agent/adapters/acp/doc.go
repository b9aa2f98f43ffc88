// Package acp drives a coding agent that speaks the Agent Client Protocol
// (JSON-RPC 2.0 over the agent's stdin/stdout, one message per line) as a
// Stratos harness session: one agent process per session, in a process
// group of its own under the kit's watchdog (adapter/process); initialize
// with protocol version negotiation, an optional authenticate, session/new
// with the selected MCP servers, one session/prompt per execute with its
// session/update notifications mapped to Stratos events, author hooks
// answered through session/request_permission, cancel as session/cancel
// (the session stays usable) and close as the kit's tear-down.
//
// A named harness (gemini) is an Agent: how to launch the agent for a
// session and how to read its errors. docs/design/acp.md says why the
// project's own JSON-RPC peer carries the protocol.
package acp
