// Package claudecode is the claude-code harness adapter: one real `claude`
// CLI process per agent session, driven through stream-json on stdin/stdout
// and Claude Code's control protocol (initialize, hook callbacks,
// permission requests, interrupt, stop_task).
//
// Facts about the CLI (argv, frames, control requests, cancellation,
// background tasks, authentication) come from shared/research/claude-code.md,
// measured against CLI 2.1.332; the conformance tests in this package run
// that CLI against the fake model server (shared/fakemodel).
//
// Layout: factory.go validates the fixed configuration; launch.go builds
// argv and environment; process.go owns the child process and its pipes;
// control.go answers the CLI's control requests; hooks.go translates the
// author's tool hooks; turn.go runs one prompt; events.go maps frames to
// Stratos events; auth.go and catalog.go are the initialization checks;
// session.go ties them together behind adapter.Adapter.
package claudecode
