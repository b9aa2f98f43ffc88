// Package claudecode is the claude-code harness adapter: one real `claude`
// CLI process per agent session, driven through stream-json on stdin/stdout
// and Claude Code's control protocol (initialize, hook callbacks,
// permission requests, interrupt, stop_task).
//
// Facts about the CLI (argv, frames, control requests, cancellation,
// background tasks, authentication) are in docs/design/claude-code-cli.md,
// measured against CLI 2.1.332; the adapter conformance suite
// (adapter/adaptertest) and the tests of this package run that CLI against
// the fake model server (shared/fakemodel).
//
// The adapter serves one model; the agent host's selector walks an agent's
// model list and harnesses, reading the typed rejections the adapter
// returns (adapter/rejection).
//
// Layout: factory.go validates the fixed configuration and declares the
// capabilities; session.go holds the session and its initialization checks
// (with auth.go, catalog.go, mcp.go) and starts the process; launch.go
// builds argv and environment; process.go speaks the control protocol over
// the kit's process supervision (adapter/process); control.go answers the
// CLI's control requests; hooks.go translates the author's tool hooks;
// execute.go and turn.go run one prompt; lifecycle.go cancels and closes;
// events.go maps frames to Stratos events.
package claudecode
