// Package codex is the codex harness adapter: one real `codex app-server`
// process (the native binary, not the npm wrapper) per agent session,
// driven over JSON-RPC on stdio, with one Codex thread per session.
//
// Facts about the CLI (protocol frames, thread/turn lifecycle, config
// overrides, hooks, approvals, errors, authentication) come from the
// research notes on codex-cli 0.171.0; the tests in this package run that
// CLI against the fake model server's Responses API (shared/fakemodel).
//
// Everything session-specific goes into thread/start's config, so Codex
// needs no config.toml: the session's own CODEX_HOME is a fresh directory
// Stratos removes at Close, except its rollouts, which live in the run
// record's state directory so that a resumed run's agent continues its
// thread with thread/resume. The author's tool hooks reach Codex as native
// mcp_tool hook handlers calling an MCP server inside the agent host.
//
// The agent kit (stratos-agent/adapter/...) supervises the process,
// types the rejections the host's selector acts on, resolves the catalog
// and the MCP selection; this package is only the translation to Codex.
//
// Layout: factory.go declares the capabilities and validates the fixed
// configuration; session.go holds the session, its initialization
// (binary.go, provider.go, auth.go, mcp.go, state.go) and starts the
// app-server (rpc.go: JSON-RPC over the kit's process); config.go builds
// thread/start; execute.go and turn.go run one prompt; notify.go,
// events.go and requests.go handle what the app-server sends; hooks.go,
// hookserver.go and outcomes.go connect the author's hooks; lifecycle.go
// cancels and closes.
package codex
