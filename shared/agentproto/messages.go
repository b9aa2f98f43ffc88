package agentproto

import (
	"encoding/json"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// ProtocolVersion changes when a message changes incompatibly. The SDK and
// the host come from one Stratos release, so a mismatch is a packaging bug.
const ProtocolVersion = 1

// MaxMessageBytes is the longest message, its newline included, that the
// host reads: far beyond any prompt, reply or structured output, and small
// enough that a peer writing without end cannot take the host's memory.
// The SDK refuses to send a longer one, since the host can only skip it
// (it cannot read the ID of a request it did not keep) and the request's
// caller would wait for an answer that never comes.
const MaxMessageBytes = 64 << 20

// Method names.
const (
	MethodInitialize     = "initialize"
	MethodAgentExecute   = "agent.execute"
	MethodAgentCancel    = "agent.cancel"
	MethodAgentClose     = "agent.close"
	MethodExecutionClose = "execution.close"
	MethodShutdown       = "shutdown"

	MethodHookBeforeToolCall = "hook.beforeToolCall"
	MethodHookAfterToolCall  = "hook.afterToolCall"
	MethodHookOnStart        = "hook.onStart"
	MethodEvent              = "event"
)

// Methods lists every method name (the TypeScript file must list the same).
func Methods() []string {
	methods := []string{
		MethodAgentCancel, MethodAgentClose, MethodAgentExecute, MethodEvent, MethodExecutionClose,
		MethodHookAfterToolCall, MethodHookBeforeToolCall, MethodHookOnStart, MethodInitialize, MethodShutdown,
	}
	methods = append(methods, MCPMethods()...)
	return append(methods, MethodDecisionAsk, MethodDecisionCancel)
}

// Hook names as they appear in ExecuteParams.Hooks.
const (
	HookBeforeToolCall = "beforeToolCall"
	HookAfterToolCall  = "afterToolCall"
	HookOnStart        = "onStart"
)

// InitializeParams opens the connection.
type InitializeParams struct {
	ProtocolVersion int `json:"protocolVersion"`
	// ExecutionID is the top-level execution the host serves.
	ExecutionID string `json:"executionId"`
	// RunDir is the run record directory (~/.stratos/runs/<executionId>);
	// events.jsonl is appended there. Empty: derived from $HOME and ExecutionID.
	RunDir string `json:"runDir,omitempty"`
	// Settings overrides ~/.stratos/settings.json when set.
	Settings *Settings `json:"settings,omitempty"`
	// Events asks for event notifications (they are recorded either way).
	Events bool `json:"events,omitempty"`
}

// Settings are the admission limits of one top-level execution.
type Settings struct {
	MaxConcurrent  int `json:"maxConcurrent"`
	MaxOutstanding int `json:"maxOutstanding"`
	// Decisions are the decisions' own limits (settings.json's
	// decisions); nil in InitializeParams: the defaults.
	Decisions *Limits `json:"decisions,omitempty"`
}

// Limits are admission limits: at most MaxConcurrent run, at most
// MaxOutstanding run or wait.
type Limits struct {
	MaxConcurrent  int `json:"maxConcurrent"`
	MaxOutstanding int `json:"maxOutstanding"`
}

// InitializeResult reports what the host will apply.
type InitializeResult struct {
	ProtocolVersion int      `json:"protocolVersion"`
	Version         string   `json:"version"`
	Settings        Settings `json:"settings"`
	EventsFile      string   `json:"eventsFile"`
	// KeysExecutes says the host keys its own record of finished executes
	// by their journal place (an engine that runs them elsewhere: Temporal),
	// so the SDK sends ExecuteParams.Place. The local host does not need
	// it: without it the SDK hashes an execute's input for its journal
	// after the request went out, while the host works on it.
	KeysExecutes bool `json:"keysExecutes,omitempty"`
}

// WorkflowRef names the workflow whose code created the agent: its
// workflow.yaml supplies the named configurations, and prompt and template
// files resolve against its directory.
type WorkflowRef struct {
	Name string `json:"name"`
	Dir  string `json:"dir"`
}

// Overrides is the agents part of an execution's invocation overrides.
type Overrides struct {
	Agents map[string]AgentConfig `json:"agents,omitempty"`
}

// ExecuteParams is one execute(prompt, templateVariables?) call.
type ExecuteParams struct {
	// AgentID identifies the agent object (unique within the host).
	AgentID string `json:"agentId"`
	// Name is how messages refer to the agent: its configId ("configId#label"
	// with a label, the label alone without a configId), or "agent #n".
	Name string `json:"name"`
	// Label is the label createAgent gave the agent ("" for none): events
	// carry it, and overrides may target "configId#label".
	Label string `json:"label,omitempty"`
	// Call numbers the agent's executes from 1; agent.cancel names it.
	Call int `json:"call"`
	// ExecutionID is the execution that owns the agent.
	ExecutionID string      `json:"executionId"`
	Workflow    WorkflowRef `json:"workflow"`
	// Cwd is the invocation working directory; a relative workingDirectory
	// resolves against it.
	Cwd string `json:"cwd"`
	// Overrides is the owning execution's invocation overrides (Overrides);
	// raw, so the host can report malformed fields with their paths.
	Overrides json.RawMessage `json:"overrides,omitempty" ts:"Overrides"`
	// Config is the object's creation fields (AgentConfig), raw for the same
	// reason.
	Config json.RawMessage `json:"config" ts:"AgentConfig"`
	// Hooks names the tool and lifecycle hooks the object has (Hook*).
	Hooks []string `json:"hooks,omitempty"`
	// OutputSchema is the JSON Schema of the object's outputSchema.
	OutputSchema      json.RawMessage            `json:"outputSchema,omitempty" ts:"Record<string, unknown>"`
	Prompt            PromptSource               `json:"prompt"`
	TemplateVariables map[string]json.RawMessage `json:"templateVariables,omitempty"`
	// Continue, on an object's first execute in a resumed run, is the
	// conversation its earlier executes had in the execution resumed
	// (answered from the journal since): the host continues it when the
	// harness can.
	Continue *Continuation `json:"continue,omitempty"`
	// Place is where the execute happened in the workflow code, as the
	// run's journal keys it (nil in a run without a journal, and sent only
	// to a host whose InitializeResult.KeysExecutes is set). The local host
	// does not need it; an engine that runs executes elsewhere (Temporal)
	// keys its own record of finished executes by it, so a retried
	// workflow-code worker is answered instead of running an agent again.
	Place *ExecutePlace `json:"place,omitempty"`
	// Phase is the phase of workflow code the execute was started in (a
	// path of nested phases, "review/fix"; "" outside any): the host puts
	// it on the execute's events.
	Phase string `json:"phase,omitempty"`
}

// ExecutePlace is an execute's journal key: the invocation path, the
// agent's configuration, label and number among the agents of that
// configuration and label, and the SHA-256 of what the execute sends.
// (Call is ExecuteParams.Call.)
type ExecutePlace struct {
	Path        string `json:"path"`
	ConfigID    string `json:"configId,omitempty"`
	Label       string `json:"label,omitempty"`
	Agent       int    `json:"agent"`
	InputSHA256 string `json:"inputSha256"`
}

// SessionRef names the harness conversation an execute ran in.
type SessionRef struct {
	Harness string `json:"harness"`
	// ID is the harness's own session (thread) ID; "" when it reported none.
	ID string `json:"id,omitempty"`
	// State is the directory (absolute, in the run record) where the
	// adapter keeps what continuing the session needs besides ID; "" for
	// none.
	State string `json:"state,omitempty"`
	// Worktree is the name of the managed worktree the agent worked in
	// ("" for none): a resumed agent whose worktree has no name of its
	// own is given this one back, with the work in it.
	Worktree string `json:"worktree,omitempty"`
}

// Continuation is a conversation to continue.
type Continuation struct {
	Session SessionRef `json:"session"`
	// Calls counts the executes the conversation had.
	Calls int `json:"calls"`
	// Transcript is the conversation's exchanges whose prompts the journal
	// kept (those of a harness that cannot continue a session), in order:
	// when the harness cannot continue the session, the new session's
	// first prompt carries them.
	Transcript []Exchange `json:"transcript,omitempty"`
}

// Exchange is one execute of a conversation: what the harness was asked
// and what it replied.
type Exchange struct {
	// Call is the execute's number on its agent object (1, 2, ...).
	Call int `json:"call"`
	// Prompt is the prompt as the harness was sent it (rendered).
	Prompt string `json:"prompt"`
	// Reply is the reply's text, or the JSON of the value of an agent with
	// an output schema.
	Reply string `json:"reply"`
}

// ExecuteResult is Text without an output schema, Value with one.
type ExecuteResult struct {
	Text  *string         `json:"text,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
	// Usage sums the usage the execute's model turns reported by the time
	// it returned (nil when none did): the run's journal keeps it, so that
	// a resumed run can say what its replayed executes cost the first time.
	Usage *CallUsage `json:"usage,omitempty"`
	// Session is the conversation the execute ran in; the journal keeps
	// it, so that a resumed run can continue it.
	Session *SessionRef `json:"session,omitempty"`
	// Prompt is the prompt the harness was sent (rendered, without an
	// exchange a continuation carried), set only when the harness cannot
	// continue a session itself: the journal keeps it, so that a resumed
	// run's new session can carry the exchange (Continuation.Transcript).
	Prompt *string `json:"prompt,omitempty"`
}

// CallUsage is the usage of some model turns, summed as budgets count it.
type CallUsage struct {
	// Tokens counts input, output, cache read and cache write tokens.
	Tokens int64 `json:"tokens"`
	// USD sums the cost of the turns whose cost is known.
	USD   float64 `json:"usd"`
	Turns int     `json:"turns"`
	// UnknownCostTurns counts the turns whose cost is not known.
	UnknownCostTurns int `json:"unknownCostTurns"`
}

// AgentRef names one agent object.
type AgentRef struct {
	AgentID string `json:"agentId"`
}

// CancelParams cancels one execute of an agent. Naming the call makes the
// notification safe to handle in any order relative to the execute request:
// a cancel that arrives first is remembered, one for a finished call is void.
type CancelParams struct {
	AgentID string `json:"agentId"`
	Call    int    `json:"call"`
	// Orphaned says the call is cancelled only because the runtime lost
	// the stratos run it answers to (its process died): the workflow did
	// not ask for it. A host of its own runs cancels the call as any
	// other; an engine whose executes outlive one attempt of the code
	// (Temporal, which gives the code to another worker that attaches to
	// the executes still running) leaves them running for that attempt.
	Orphaned bool `json:"orphaned,omitempty"`
}

// ExecutionRef names one execution.
type ExecutionRef struct {
	ExecutionID string `json:"executionId"`
}

// CloseResult reports what a close did.
type CloseResult struct {
	// Closed counts the sessions whose harness resources were released.
	Closed int `json:"closed"`
}

// ToolCallParams is a tool call the harness is about to make.
type ToolCallParams struct {
	AgentID     string          `json:"agentId"`
	ExecutionID string          `json:"executionId"`
	ToolCallID  string          `json:"toolCallId"`
	ToolName    string          `json:"toolName"`
	Input       json.RawMessage `json:"input"`
}

// AfterToolCallParams is a finished tool call: Output on success, Error on
// failure (also when a beforeToolCall hook denied it).
type AfterToolCallParams struct {
	AgentID     string          `json:"agentId"`
	ExecutionID string          `json:"executionId"`
	ToolCallID  string          `json:"toolCallId"`
	ToolName    string          `json:"toolName"`
	Input       json.RawMessage `json:"input"`
	Output      json.RawMessage `json:"output,omitempty"`
	Error       *ToolError      `json:"error,omitempty"`
}

// ToolError describes a failed tool call.
type ToolError struct {
	Message string `json:"message"`
}

// Tool hook decisions.
const (
	ActionAllow  = "allow"
	ActionDeny   = "deny"
	ActionModify = "modify"
	ActionBlock  = "block"
)

// BeforeToolCallResult is allow, deny (Reason) or modify (Arguments). A null
// result means allow.
type BeforeToolCallResult struct {
	Action    string          `json:"action" ts:"\"allow\" | \"deny\" | \"modify\""`
	Reason    string          `json:"reason,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty" ts:"Record<string, unknown>"`
}

// AfterToolCallResult is block (Reason). A null result keeps the output.
type AfterToolCallResult struct {
	Action string `json:"action" ts:"\"block\""`
	Reason string `json:"reason,omitempty"`
}

// LifecycleParams names the agent whose invocation starts.
type LifecycleParams struct {
	AgentID     string `json:"agentId"`
	ExecutionID string `json:"executionId"`
}

// Event is one observation, as recorded in events.jsonl: the event
// vocabulary's line (shared/contract/eventapi), whose details are one type
// per kind.
type Event = eventapi.Event
