package adaptertest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// A conformance case: what it needs from the harness and what it checks.
type conformanceCase struct {
	name string
	// needs returns why the harness cannot take the case ("" = it can).
	needs func(c adapter.Capabilities) string
	run   func(t *testing.T, b *bed)
}

// Run runs every conformance case against the fixture's harness, each in
// a subtest with an environment of its own.
func Run(t *testing.T, f Fixture) {
	h := f.Harness()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.needs != nil {
				if reason := c.needs(h.Capabilities); reason != "" {
					t.Skipf("harness %s: %s", h.Name, reason)
				}
			}
			b := &bed{t: t, f: f, caps: h.Capabilities, harness: h.Name}
			// Registered before the case's own cleanups, so it runs after
			// them: the events of Close count too.
			t.Cleanup(func() { b.Conform(t, "harness "+h.Name) })
			c.run(t, b)
		})
	}
}

// Capability checks, each with the reason a case is skipped.
func executesTools(c adapter.Capabilities) string {
	if !c.ExecutesTools {
		return "tools are simulated (Capabilities.ExecutesTools is false): no real command runs"
	}
	return ""
}

func modifiesArguments(c adapter.Capabilities) string {
	if r := executesTools(c); r != "" {
		return r + ", so modified arguments cannot change a real output"
	}
	if r := toolHooks(c); r != "" {
		return r
	}
	if !c.HooksModifyArguments {
		return "beforeToolCall cannot modify arguments (Capabilities.HooksModifyArguments is false)"
	}
	return ""
}

func toolHooks(c adapter.Capabilities) string {
	if c.ToolHooksUnsupported != "" {
		return "tool hooks cannot run (Capabilities.ToolHooksUnsupported): " + c.ToolHooksUnsupported
	}
	return ""
}

func blocksFailures(c adapter.Capabilities) string {
	if r := toolHooks(c); r != "" {
		return r
	}
	if c.AfterHookKeepsFailure != "" {
		return "afterToolCall cannot change a failed tool's error (Capabilities.AfterHookKeepsFailure): " + c.AfterHookKeepsFailure
	}
	return ""
}

func replacesFailures(c adapter.Capabilities) string {
	if r := toolHooks(c); r != "" {
		return r
	}
	if !c.AfterHookReplacesFailure {
		return "afterToolCall can only add to a failed tool's error, not replace it (Capabilities.AfterHookReplacesFailure is false): a documented limit"
	}
	return ""
}

func cancelsBackground(c adapter.Capabilities) string {
	if !c.BackgroundWork {
		return "the harness starts no background work (Capabilities.BackgroundWork is false)"
	}
	if !c.CancelsBackgroundWork {
		return "cancel cannot stop background work (Capabilities.CancelsBackgroundWork is false): a documented limit"
	}
	return ""
}

func nativeStructuredOutput(c adapter.Capabilities) string {
	if c.StructuredOutput != adapter.StructuredOutputTool {
		return fmt.Sprintf("structured output is %q, not validated by the harness: the agent host validates the value (its tests cover the mismatch)", c.StructuredOutput)
	}
	return ""
}

func reportsUsage(c adapter.Capabilities) string {
	if !c.ReportsUsage {
		return "the harness reports no token usage (Capabilities.ReportsUsage is false)"
	}
	return ""
}

func selectsModels(c adapter.Capabilities) string {
	if !c.SelectsModels {
		return "the harness does not refuse unavailable models (Capabilities.SelectsModels is false)"
	}
	return ""
}

func checksAuthentication(c adapter.Capabilities) string {
	if !c.ChecksAuthentication {
		return "the harness does not check authentication (Capabilities.ChecksAuthentication is false)"
	}
	return ""
}

// bed is one case: the fixture's environment, the adapter's events and
// the author hooks' calls.
type bed struct {
	t       *testing.T
	f       Fixture
	caps    adapter.Capabilities
	harness string
	env     Env
	Events
}

// start scripts the model and returns the environment.
func (b *bed) start(s Script) Env {
	b.t.Helper()
	b.env = b.f.Start(b.t, s)
	return b.env
}

// open makes and initializes an adapter; edit changes the base spec.
func (b *bed) open(hooks adapter.Hooks, edit func(*adapter.Spec)) adapter.Adapter {
	b.t.Helper()
	a, err := b.make(hooks, edit)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := a.Initialize(b.ctx()); err != nil {
		b.t.Fatalf("initialize: %v", err)
	}
	return a
}

// make makes an adapter that Close releases at the end of the case.
func (b *bed) make(hooks adapter.Hooks, edit func(*adapter.Spec)) (adapter.Adapter, error) {
	spec := b.env.Spec()
	if spec.Name == "" {
		spec.Name = "tester"
	}
	if edit != nil {
		edit(&spec)
	}
	if hooks == nil {
		hooks = &Hooks{}
	}
	if h, ok := hooks.(*Hooks); ok && b.caps.ToolHooksUnsupported != "" && h.Before == nil && h.After == nil {
		// A harness that cannot run tool hooks refuses an agent that has
		// them; the cases that need none give it an agent without.
		hooks = withoutToolHooks{h}
	}
	a, err := b.env.New(spec, b.Record, hooks)
	if err != nil {
		return nil, err
	}
	b.t.Cleanup(func() {
		if err := a.Close(context.Background()); err != nil {
			b.t.Errorf("close: %v", err)
		}
	})
	return a, nil
}

// withoutToolHooks are hooks that report having no tool hook
// (adapter.ToolHookReporter).
type withoutToolHooks struct{ adapter.Hooks }

func (withoutToolHooks) HasToolHooks() bool { return false }

// ctx bounds one call of a case.
func (b *bed) ctx() context.Context { return Context(b.t) }

func (b *bed) execute(a adapter.Adapter, prompt string) adapter.Result {
	b.t.Helper()
	res, err := a.Execute(b.ctx(), prompt)
	if err != nil {
		b.t.Fatalf("execute %q: %v", prompt, err)
	}
	return res
}

// requestsFor are the requests whose prompt is prompt.
func (b *bed) requestsFor(prompt string) []Request {
	var out []Request
	for _, r := range b.env.Requests() {
		if r.Prompt == prompt {
			out = append(out, r)
		}
	}
	return out
}

// toolResults are the tool results the model received for prompt.
func (b *bed) toolResults(prompt string) []ToolResult {
	var out []ToolResult
	for _, r := range b.requestsFor(prompt) {
		out = append(out, r.ToolResults...)
	}
	return out
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", code)
	}
	if got := agentproto.CodeOf(err); got != code {
		t.Fatalf("error code %s (%v), want %s", got, err, code)
	}
}

// longRun is a command that never ends by itself, for the cases that
// cancel or close a harness while it runs. Its marker, STRATOS_SUITE_LONG=<id>,
// is in the command line of the shell that runs it and, set by that shell,
// in the environment of every process the command starts, which inherit it:
// a grandchild whose parent was killed (reparented, its own command line no
// longer names the case) is still found. The id is a duration no other
// process uses. (Claude Code refuses a plain long `sleep`, so the command is
// `timeout <id> tail -f /dev/null`.)
type longRun struct{ marker, command string }

func newLongRun() longRun {
	id := fmt.Sprintf("%d.%03d", 3000+rand.IntN(5000), rand.IntN(1000))
	marker := "STRATOS_SUITE_LONG=" + id
	return longRun{marker: marker, command: marker + " timeout " + id + " tail -f /dev/null"}
}
