// Package adapter is the boundary between the agent host and one harness.
// The host owns the execution rules (configuration, templates, admission,
// concurrency, events, hooks over the protocol); an adapter translates a
// session into native harness operations. One package per harness
// implements Adapter.
package adapter

import (
	"context"
	"encoding/json"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Adapter is one agent session on one harness. The host calls Initialize
// once before the first Execute (again after a failed Initialize, on the
// next explicit execute), Execute sequentially, Cancel at any time and Close
// once at cleanup.
type Adapter interface {
	// Initialize starts the native session. A failure leaves the adapter
	// closed of partial resources, ready for another Initialize.
	Initialize(ctx context.Context) error
	// Execute sends one rendered user prompt and returns the reply. It ends
	// early when ctx ends or Cancel is called, with an error whose code is
	// "cancelled".
	Execute(ctx context.Context, prompt string) (Result, error)
	// Cancel signals cancellation of all work the session owns and returns
	// at once; it does not wait for it to stop.
	Cancel()
	// Close releases every resource the session owns.
	Close(ctx context.Context) error
}

// ResumeReporter is implemented by an adapter that may not manage to
// continue the session its Spec.Resume names (an agent that lost its
// record of it, or never offered to load one) and then starts a new one
// rather than fail. After Initialize, Resumed says whether it continued
// it, and if not why; the host then carries the conversation in the new
// session's first prompt, and keeps every prompt in the journal for that.
type ResumeReporter interface {
	Resumed() (ok bool, reason string)
}

// Result is Text without an output schema; Value (a JSON document from the
// harness's native structured output) with one.
type Result struct {
	Text  string
	Value json.RawMessage
}

// Spec is the fixed configuration of one session, resolved and rendered by
// the host.
type Spec struct {
	AgentID string
	// Name is how messages refer to the agent: its configId, with
	// "#label" when it has a label.
	Name string
	// ConfigID is the named configuration the agent uses ("" for none);
	// Label the label its creation gave it ("" for none).
	ConfigID    string
	Label       string
	ExecutionID string
	WorkflowDir string

	Harness  string
	Provider string
	Models   []string
	Effort   string
	// SystemPrompt is rendered once, at initialization.
	SystemPrompt string
	// WorkingDirectory is the agent's effective directory: with a worktree,
	// the worktree's checkout.
	WorkingDirectory string
	// HarnessContext is the worktree context (stratos-worktree's
	// harnessContext) the adapter adds once per session through the
	// harness's system/developer instruction mechanism, after SystemPrompt;
	// empty when the agent has no worktree.
	HarnessContext string
	AllowedMcps    []string
	Tools          tools.Selection
	// OutputSchema is the JSON Schema of the expected value, or nil.
	OutputSchema json.RawMessage
	// Test is the harness-specific configuration of the test harness.
	Test json.RawMessage
	// ACP is the agent the acp harness runs (nil for the other harnesses).
	ACP *agentproto.ACPAgent
	// StateDir, for a harness that ResumesSessions, is a private directory
	// (in the run record, mode 0700) where the adapter keeps what a later
	// execution needs to continue the session: never credentials. It
	// outlives the session; "" keeps nothing.
	StateDir string
	// Resume, when set, continues an earlier execution's session instead
	// of starting one: StateDir then holds a copy of that session's state.
	Resume *Resume
}

// Resume is an earlier execution's session to continue.
type Resume struct {
	// SessionID is the harness's own session (thread) ID.
	SessionID string
	// Calls counts the executes the conversation had.
	Calls int
}

// Hooks are the author's tool hooks, reached through the SDK. Adapters call
// them around every tool call (except a harness's internal structured-output
// delivery). An error means the hook threw: the invocation must fail with it.
type Hooks interface {
	BeforeToolCall(ctx context.Context, call ToolCall) (agentproto.BeforeToolCallResult, error)
	AfterToolCall(ctx context.Context, call ToolCall, output json.RawMessage, toolErr *agentproto.ToolError) (agentproto.AfterToolCallResult, error)
}

// ToolHookReporter is implemented by Hooks that know whether the agent has
// a tool hook at all (beforeToolCall or afterToolCall).
type ToolHookReporter interface {
	HasToolHooks() bool
}

// HasToolHooks reports whether hooks may call a tool hook: true unless they
// report that the agent has none. An adapter may skip the plumbing that
// only delivers tool hooks (the codex adapter's hook server) when false;
// without it the calls would only answer "allow".
func HasToolHooks(hooks Hooks) bool {
	if r, ok := hooks.(ToolHookReporter); ok {
		return r.HasToolHooks()
	}
	return true
}

// ToolCall identifies one tool call.
type ToolCall struct {
	ID    string
	Name  string
	Input json.RawMessage
}

// Factory makes an adapter for spec. onEvent is bound to the owning agent;
// it never blocks for long and never fails.
type Factory func(spec Spec, onEvent func(Event), hooks Hooks) (Adapter, error)
