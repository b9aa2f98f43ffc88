// Package acpgeneric is the acp harness: any coding agent that speaks the
// Agent Client Protocol, named by the agent's configuration (acp: command,
// args, env), driven by package acp. It offers what the protocol itself
// guarantees of every agent and refuses, when the agent is made, what it
// cannot: tool hooks (an agent asks session/request_permission only for
// the calls it chooses to), a provider or an effort (ACP has no field for
// them), a model the agent does not offer for session/set_model (at its
// start), built-in tool selection (the agent's tools are its own) and a
// system prompt unless the configuration names the agent's variable for a
// system-prompt file. Each session runs the agent with a private HOME and
// XDG directories and only PATH, the locale and the configured variables
// of the host's environment. docs/harness-acp.md is its page.
package acpgeneric
