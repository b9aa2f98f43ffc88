// Package opencode is the opencode harness adapter: one real `opencode
// serve` process per agent session, bound to a free loopback port, driven
// over its HTTP API (the v1 routes) with one event stream (the server's
// global stream, which delivers sooner than the directory's) and one
// OpenCode session. Each prompt goes through the synchronous route and
// the turn ends at its answer, which also carries what the stream has not
// delivered by then (the server writes a turn's events to the stream only
// after the answer).
//
// Facts about the server (routes, events, permissions, plugins, errors,
// offline behaviour) were measured on OpenCode 1.18.33 (docs/harness-opencode.md);
// the tests in this package run that binary against the fake model
// server (shared/fakemodel).
//
// The server runs in an isolated configuration Stratos creates and
// removes: private XDG directories and home, the configuration in
// OPENCODE_CONFIG_CONTENT, project configuration and OpenCode's own
// network features switched off. The session's system prompt is the
// prompt of a Stratos-defined primary agent, so it is fixed for the whole
// session. The author's tool hooks run in a generated JS plugin that
// calls back to the agent host over loopback with a per-session secret.
//
// Layout: factory.go declares the capabilities and validates the fixed
// configuration; session.go holds the session and its initialization
// (binary.go, provider.go, auth.go, config.go, isolate.go); server.go
// starts `opencode serve` and client.go talks to it; stream.go reads its
// event stream and observer.go maps it to Stratos events; execute.go and
// turn.go run one prompt, replay.go reports what the answer has and the
// stream has not yet delivered; resume.go continues a resumed run's
// session; hookserver.go, hooks.go and plugin.js connect the author's
// hooks; lifecycle.go cancels and closes.
package opencode
