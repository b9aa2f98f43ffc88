// Package adaptertest is the conformance suite every harness adapter runs:
// one set of behaviours (conversation memory, instructions, tools, hooks,
// structured output, cancellation, close, rejections, usage) checked the
// same way for every harness, so that a workflow behaves alike whichever
// harness runs its agents.
//
// # Running it
//
// An adapter's tests call Run with a Fixture:
//
//	func TestConformance(t *testing.T) { adaptertest.Run(t, myFixture{}) }
//
// Against a real harness the suite runs the real CLI (never a mock of it)
// talking to a fake model server on 127.0.0.1 (shared/fakemodel). A case
// whose CLI is missing fails naming what to install; it is never skipped
// silently. A case that needs a capability the harness lacks (see
// adapter.Capabilities) is skipped with the capability's reason, so the
// test output lists every documented difference between harnesses.
//
// Every event an adapter emits in a case (and in any test on a Bed) is
// checked against the event vocabulary (Events.Conform, eventapi.Check):
// a kind or a field the vocabulary does not define fails the test,
// showing the event.
//
// # Writing a fixture
//
// A Fixture tells the suite three things; everything harness-specific
// stays in it:
//
//   - Harness: the adapter under test and its capabilities.
//   - Start: for one case, start the fake model (or whatever the harness
//     talks to) scripted with the case's Turns, and return an Env.
//     Turns are harness-neutral: a text reply, a shell command the harness
//     itself runs (foreground, long or in the background), a structured
//     value, a refused model. The fixture translates each into its fake
//     server's script (for Claude Code a Bash tool_use, for Codex a shell
//     call). A turn is chosen by the Marker the prompt carries.
//   - Env: a factory bound to the fake (environment, credentials, binary),
//     the base Spec (model, working directory), the requests the model
//     received (Requests, in the API-neutral Request form) and a
//     ProcessMarker: a KEY=VALUE every process the adapter starts
//     inherits, so the suite can prove that nothing survives Close.
//
// # The bed
//
// A fixture whose CLI talks to the fake model builds on Bed (NewBed: the
// fake on 127.0.0.1, a private HOME and working directory, an
// environment carrying a process marker, the adapter's events),
// translates the turns with FakeScript and a ToolFormat (how its model
// calls the shell and delivers a structured value) and returns a FakeEnv
// (its factory, base spec and a reader of the fake's log:
// AnthropicRequests, ResponsesRequests). What remains in the fixture is
// what differs: the variables that point its CLI at the fake.
// An adapter's own tests use the same Bed.
//
// The claude-code fixture (adapters/claudecode/conformance_test.go) and the
// test-harness fixture (adapters/test/conformance_test.go) are complete
// examples.
package adaptertest
