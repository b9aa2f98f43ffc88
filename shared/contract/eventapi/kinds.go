package eventapi

import (
	"encoding/json"
	"reflect"

	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
)

// The event types, by who writes them.
const (
	// The agent host, for each agent.
	TypeAgentAdmissionQueued         = "agent.admission.queued"
	TypeAgentInitializationStarted   = "agent.initialization.started"
	TypeAgentInitializationCompleted = "agent.initialization.completed"
	TypeAgentInvocationStarted       = "agent.invocation.started"
	TypeAgentInvocationCompleted     = "agent.invocation.completed"
	TypeAgentStructuredOutputRetry   = "agent.structured_output.retry"
	TypeAgentClosed                  = "agent.closed"
	TypeAgentSessionContinued        = "agent.session.continued"
	TypeModelUnavailable             = "model.unavailable"

	// The agent host, for each decision.
	TypeDecisionStarted   = "decision.started"
	TypeDecisionQueued    = "decision.admission.queued"
	TypeDecisionRetry     = "decision.retry"
	TypeDecisionCompleted = "decision.completed"

	// The harness adapters, mapping each harness's own stream.
	TypeModelStarted           = "model.started"
	TypeModelCompleted         = "model.completed"
	TypeModelRetry             = "model.retry"
	TypeMessageDelta           = "message.delta"
	TypeToolStarted            = "tool.started"
	TypeToolCompleted          = "tool.completed"
	TypeBackgroundStarted      = "background.started"
	TypeBackgroundActivity     = "background.activity"
	TypeBackgroundCompleted    = "background.completed"
	TypeCompactionStarted      = "compaction.started"
	TypeCompactionCompleted    = "compaction.completed"
	TypePlanUpdated            = "plan.updated"
	TypeUsage                  = "usage"
	TypeTestCase               = "test.case"
	TypeMCPProgress            = "mcp.progress"
	TypeMCPLog                 = "mcp.log"
	TypeWorktreeAcquired       = "worktree.acquired"
	TypeWorktreeReconciled     = "worktree.reconciled"
	TypeWorktreeReleased       = "worktree.released"
	TypeWorkflowLog            = "workflow.log"
	TypeWorkflowPhase          = "workflow.phase"
	TypeWorkflowChildStarted   = "workflow.child.started"
	TypeWorkflowChildCompleted = "workflow.child.completed"
	TypeCallReplayed           = "call.replayed"
)

// Statuses of the kinds that end something.
const (
	StatusCompleted  = "completed"
	StatusFailed     = "failed"
	StatusCancelled  = "cancelled"
	StatusClosed     = "closed"
	StatusSucceeded  = "succeeded"
	StatusReleased   = "released"
	StatusIncomplete = "incomplete" // background work still running when its agent closed
)

// Cost provenances of a usage event's costUsd.
const (
	CostReported = "reported" // the harness reported it
	CostPriced   = "priced"   // the host priced the turn from the model catalog
)

// Error is why something failed: a code when Stratos classified it, and a
// message for people.
type Error struct {
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}

// Tokens are one turn's token counts, by kind. Input excludes cache reads
// and writes (as prices are quoted); reasoning tokens are part of output.
type Tokens struct {
	InputTokens              int64 `json:"inputTokens"`
	OutputTokens             int64 `json:"outputTokens"`
	CacheReadInputTokens     int64 `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64 `json:"cacheCreationInputTokens"`
	ReasoningOutputTokens    int64 `json:"reasoningOutputTokens"`
}

// Total is every token counted: input, output, cache reads and writes.
func (t Tokens) Total() int64 {
	return t.InputTokens + t.OutputTokens + t.CacheReadInputTokens + t.CacheCreationInputTokens
}

// Issue is one way a value failed its JSON Schema.
type Issue struct {
	// Path is the field's dotted path ("items.2.name"); "" is the value itself.
	Path    string `json:"path"`
	Message string `json:"message"`
}

// AgentAdmissionQueued: the agent waits for an admission slot (the
// host's limit of agents running at once).
type AgentAdmissionQueued struct{}

// AgentInitializationStarted: the harness session is being started.
type AgentInitializationStarted struct{}

// AgentInitializationCompleted: the harness session started, or failed to.
type AgentInitializationCompleted struct {
	Status string `json:"status" ts:"\"completed\" | \"failed\""`
	// Harness is the harness the session runs on, once it started.
	Harness string `json:"harness,omitempty"`
	Error   *Error `json:"error,omitempty"`
}

// AgentSessionContinued: a resumed run's agent, whose earlier executes
// were answered from the journal, continues the harness conversation they
// had (Continued), or starts a new one (Reason says why) — whose first
// prompt carries the replayed exchange when ByTranscript.
type AgentSessionContinued struct {
	Harness string `json:"harness"`
	// SessionID is the harness's own session (thread) ID continued.
	SessionID string `json:"sessionId,omitempty"`
	// Calls counts the executes the conversation had.
	Calls     int    `json:"calls"`
	Continued bool   `json:"continued"`
	Reason    string `json:"reason,omitempty"`
	// ByTranscript: the conversation continues by transcript, not
	// natively: the new session's first prompt carries Exchanges of its
	// exchanges (prompts and replies); Omitted, the oldest, are left out
	// to bound its size or because their prompts were not kept.
	ByTranscript bool `json:"byTranscript,omitempty"`
	Exchanges    int  `json:"exchanges,omitempty"`
	Omitted      int  `json:"omitted,omitempty"`
}

// CallReplayed: a resumed run answered a call from the journal of the
// execution it resumes, without making it (the workflow runtime writes it).
type CallReplayed struct {
	// Call is what was answered.
	Call string `json:"call" ts:"\"agent.execute\" | \"workflow.child\" | \"mcp.call\" | \"budget.read\""`
	// Path is the invocation's place in the journal.
	Path string `json:"path"`
	// Name names the callee: the agent ("configId#label"), the child
	// workflow, or "server/tool".
	Name string `json:"name,omitempty"`
	// Number is the execute's number on its agent object, or the place of
	// a child, an MCP call or a budget reading among its kind.
	Number int `json:"number,omitempty"`
	// From is the execution whose journal answered.
	From string `json:"from"`
}

// AgentInvocationStarted: an execute began.
type AgentInvocationStarted struct {
	// Name is the agent's configuration name.
	Name string `json:"name"`
	// PromptKind says how the prompt was given: text, file, template, config.
	PromptKind string `json:"promptKind"`
	ConfigID   string `json:"configId,omitempty"`
	// PromptPreview is the first line of a prompt given as text, cut to
	// MaxPromptPreview characters: what tells apart the agents of one
	// configuration that a fan-out gave different work. Never the whole
	// prompt; empty for a prompt from a file, a template or a configuration.
	PromptPreview string `json:"promptPreview,omitempty"`
}

// MaxPromptPreview is the most characters an agent-start event keeps of
// its prompt's first line.
const MaxPromptPreview = 120

// AgentInvocationCompleted: an execute ended.
type AgentInvocationCompleted struct {
	Status string `json:"status" ts:"\"completed\" | \"failed\""`
	Error  *Error `json:"error,omitempty"`
}

// AgentStructuredOutputRetry: the answer did not match the output schema
// and the agent is asked again.
type AgentStructuredOutputRetry struct {
	Attempt int     `json:"attempt"`
	Of      int     `json:"of"`
	Issues  []Issue `json:"issues"`
}

// AgentClosed: the agent's session was torn down.
type AgentClosed struct {
	Status string `json:"status" ts:"\"closed\" | \"failed\""`
	Error  *Error `json:"error,omitempty"`
}

// ModelUnavailable: a candidate model was refused and the agent moves to
// the next of its list.
type ModelUnavailable struct {
	Harness string `json:"harness"`
	Model   string `json:"model"`
	// Next is the model tried next; "" when none is left.
	Next  string `json:"next"`
	Error *Error `json:"error,omitempty"`
}

// DecisionStarted: a decision began (ids.decisionId): its question's
// kind and where it is asked.
type DecisionStarted struct {
	Kind     string `json:"kind" ts:"\"choice\" | \"score\" | \"verdict\""`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Endpoint is the URL the decision is sent to (without credentials).
	Endpoint string `json:"endpoint"`
	Samples  int    `json:"samples"`
}

// DecisionAdmissionQueued: a sample of the decision waits for a slot of
// the run's decisions pool (decisions.maxConcurrent requests are
// running); the decision's span shows how long.
type DecisionAdmissionQueued struct {
	Sample int `json:"sample"`
}

// DecisionRetry: a sample's answer failed the question's validation and
// the model is asked again (Attempt of Of), told what was wrong.
type DecisionRetry struct {
	Sample  int    `json:"sample"`
	Attempt int    `json:"attempt"`
	Of      int    `json:"of"`
	Problem string `json:"problem"`
}

// DecisionCompleted: a decision ended, with its answer (the JSON the
// model chose: a choice's id, a score's number, a verdict) or its error.
type DecisionCompleted struct {
	Status     string          `json:"status" ts:"\"completed\" | \"failed\""`
	Answer     json.RawMessage `json:"answer,omitempty"`
	Confidence *float64        `json:"confidence,omitempty"`
	Basis      string          `json:"basis,omitempty"`
	Error      *Error          `json:"error,omitempty"`
}

// ModelStarted: a model round trip began.
type ModelStarted struct {
	Model string `json:"model,omitempty"`
	// TTFTMs is the time to the first token, when the harness measures it.
	TTFTMs *float64 `json:"ttftMs,omitempty"`
	// Turn, Case and Call are the test harness's: its turn number, and
	// the case and call of the script step that answers.
	Turn int    `json:"turn,omitempty"`
	Case string `json:"case,omitempty"`
	Call int    `json:"call,omitempty"`
}

// ModelCompleted: a model round trip ended.
type ModelCompleted struct {
	Model      string  `json:"model,omitempty"`
	StopReason string  `json:"stopReason,omitempty"`
	Usage      *Tokens `json:"usage,omitempty"`
	// Turn is the test harness's. Status is set when the turn did not
	// complete (failed, cancelled): the test harness sets it on every
	// turn.
	Turn   int    `json:"turn,omitempty"`
	Status string `json:"status,omitempty"`
}

// ModelRetry: the harness retries a failed model request.
type ModelRetry struct {
	Attempt      int     `json:"attempt,omitempty"`
	MaxRetries   int     `json:"maxRetries,omitempty"`
	RetryDelayMs float64 `json:"retryDelayMs,omitempty"`
	// ErrorStatus is the HTTP status of the failed request, when known.
	ErrorStatus int    `json:"errorStatus,omitempty"`
	ErrorKind   string `json:"errorKind,omitempty"`
	Message     string `json:"message,omitempty"`
}

// MessageDelta: streamed text or reasoning.
type MessageDelta struct {
	Kind  string `json:"kind" ts:"\"text\" | \"thinking\""`
	Text  string `json:"text"`
	Index *int   `json:"index,omitempty"`
}

// Message delta kinds.
const (
	DeltaText     = "text"
	DeltaThinking = "thinking"
)

// ToolStarted: a tool call began (ids.toolCallId).
type ToolStarted struct {
	ToolName string          `json:"toolName"`
	Input    json.RawMessage `json:"input,omitempty"`
}

// ToolCompleted: a tool call ended (ids.toolCallId).
type ToolCompleted struct {
	ToolName string `json:"toolName"`
	IsError  bool   `json:"isError"`
	// Status is the harness's word for the outcome (completed, failed,
	// declined, denied, blocked, ...), when it has one.
	Status string          `json:"status,omitempty"`
	Output json.RawMessage `json:"output,omitempty"`
	Error  *Error          `json:"error,omitempty"`
	// ExitCode is a shell command's.
	ExitCode *int `json:"exitCode,omitempty"`
	// Input is the input the tool ran with, when a hook changed it
	// (Modified) or the harness reports it only at the end.
	Input    json.RawMessage `json:"input,omitempty"`
	Modified bool            `json:"modified,omitempty"`
	// Reason is a hook's, when it denied or blocked the call.
	Reason string `json:"reason,omitempty"`
}

// BackgroundStarted: work that outlives its turn began (ids.taskId;
// ids.invocationId is the execute that started it).
type BackgroundStarted struct {
	TaskType       string `json:"taskType,omitempty"`
	Description    string `json:"description,omitempty"`
	IsBackgrounded *bool  `json:"isBackgrounded,omitempty"`
}

// BackgroundActivity: background work reported progress.
type BackgroundActivity struct {
	Status      string          `json:"status,omitempty"`
	Description string          `json:"description,omitempty"`
	Summary     string          `json:"summary,omitempty"`
	Patch       json.RawMessage `json:"patch,omitempty"`
}

// BackgroundCompleted: background work ended; status incomplete (and the
// event reconstructed) when it was still running as its agent closed.
type BackgroundCompleted struct {
	Status  string `json:"status,omitempty"`
	Summary string `json:"summary,omitempty"`
}

// CompactionStarted: the harness began compacting its conversation.
type CompactionStarted struct{}

// CompactionCompleted: the harness compacted its conversation.
type CompactionCompleted struct {
	Metadata json.RawMessage `json:"compactMetadata,omitempty"`
}

// PlanUpdated: the agent reported its plan for the turn (an ACP agent's
// plan update). Each update is the whole plan: it replaces the one
// before.
type PlanUpdated struct {
	Entries []PlanEntry `json:"entries"`
}

// PlanEntry is one step of an agent's plan.
type PlanEntry struct {
	Content string `json:"content"`
	// Priority and Status are the agent's own words: ACP's are high,
	// medium, low and pending, in_progress, completed.
	Priority string `json:"priority,omitempty"`
	Status   string `json:"status,omitempty"`
}

// Usage is one turn's usage: its tokens and, when known, its cost. It is
// the one event budgets, roll-ups and tracing count.
type Usage struct {
	Tokens
	// CostUSD is the turn's cost in US dollars; absent when unknown.
	CostUSD *float64 `json:"costUsd,omitempty"`
	// CostProvenance says where CostUSD comes from (CostReported or
	// CostPriced); absent with CostUSD.
	CostProvenance string `json:"costProvenance,omitempty" ts:"\"reported\" | \"priced\""`
	Provider       string `json:"provider,omitempty"`
	Model          string `json:"model,omitempty"`
	// NumTurns, DurationMs and DurationAPIMs are what Claude Code reports
	// of the turn; Unsolicited marks a turn it took without a prompt of
	// Stratos's (a background task's notification).
	NumTurns      int     `json:"numTurns,omitempty"`
	DurationMs    float64 `json:"durationMs,omitempty"`
	DurationAPIMs float64 `json:"durationApiMs,omitempty"`
	Unsolicited   bool    `json:"unsolicited,omitempty"`
	// Status is the turn's end as the harness reports it (Codex).
	Status string `json:"status,omitempty"`
}

// TestCase: the test harness served an execute from a case's script.
type TestCase struct {
	Case   string `json:"case"`
	Call   int    `json:"call"`
	Served int    `json:"served"`
	Config string `json:"config"`
	Label  string `json:"label,omitempty"`
	Script string `json:"script"`
}

// MCPProgress: an MCP server reported progress of a direct tool call.
type MCPProgress struct {
	Server   string  `json:"server"`
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

// MCPLog: an MCP server sent a log message (notifications/message) to a
// direct client of workflow code. Data is the message's data: a string as
// itself, other JSON as its JSON text, cut to MCPLogMaxBytes (Truncated
// then says so) so that a chatty server cannot swell the record.
type MCPLog struct {
	Server    string `json:"server"`
	Level     string `json:"level" ts:"\"debug\" | \"info\" | \"notice\" | \"warning\" | \"error\" | \"critical\" | \"alert\" | \"emergency\""`
	Logger    string `json:"logger,omitempty"`
	Data      string `json:"data"`
	Truncated bool   `json:"truncated,omitempty"`
}

// MCPLogMaxBytes bounds an mcp.log event's data.
const MCPLogMaxBytes = 8 << 10

// WorktreeAcquired: the agent got its worktree.
type WorktreeAcquired struct {
	Name       string                   `json:"name"`
	Path       string                   `json:"path"`
	Branch     string                   `json:"branch"`
	Repository string                   `json:"repository"`
	Created    bool                     `json:"created"`
	Reused     bool                     `json:"reused"`
	BranchNew  bool                     `json:"branchNew"` // the acquire made the branch
	Protected  bool                     `json:"protected"`
	Warnings   []worktreeapi.Diagnostic `json:"warnings"`
}

// WorktreeReconciled: before the first worktree of a repository, the
// host settled what earlier runs left; on failure only Status, Error and
// WorkingDirectory are set.
type WorktreeReconciled struct {
	Status           string `json:"status,omitempty" ts:"\"failed\""`
	Error            *Error `json:"error,omitempty"`
	WorkingDirectory string `json:"workingDirectory,omitempty"`
	*worktreeapi.ReconcileResult
}

// WorktreeReleased: at the run's end, the host gave a worktree back. The
// release's result names the worktree; when the release failed, only its
// name, path and repository are set.
type WorktreeReleased struct {
	Status string `json:"status" ts:"\"released\" | \"failed\""`
	Error  *Error `json:"error,omitempty"`
	// Agents are the agents that used it.
	Agents []string `json:"agents"`
	*worktreeapi.ReleaseResult
}

// WorkflowLog: workflow code called log(message).
type WorkflowLog struct {
	Message string `json:"message"`
}

// WorkflowPhase: workflow code called phase(name).
type WorkflowPhase struct {
	Phase string `json:"phase"`
}

// WorkflowChildStarted: a child invocation started (the envelope's
// executionId and workflow are the child's).
type WorkflowChildStarted struct {
	ParentExecutionID string `json:"parentExecutionId"`
	ParentWorkflow    string `json:"parentWorkflow"`
	// RunID is the top-level invocation's execution ID: the run's record.
	RunID string `json:"runId"`
}

// WorkflowChildCompleted: a child invocation ended, its agents and
// children closed.
type WorkflowChildCompleted struct {
	WorkflowChildStarted
	Status     string `json:"status" ts:"\"succeeded\" | \"failed\" | \"cancelled\""`
	DurationMs int64  `json:"durationMs"`
	Error      *Error `json:"error,omitempty"`
}

func (*AgentAdmissionQueued) EventType() string         { return TypeAgentAdmissionQueued }
func (*AgentInitializationStarted) EventType() string   { return TypeAgentInitializationStarted }
func (*AgentInitializationCompleted) EventType() string { return TypeAgentInitializationCompleted }
func (*AgentInvocationStarted) EventType() string       { return TypeAgentInvocationStarted }
func (*AgentInvocationCompleted) EventType() string     { return TypeAgentInvocationCompleted }
func (*AgentStructuredOutputRetry) EventType() string   { return TypeAgentStructuredOutputRetry }
func (*AgentClosed) EventType() string                  { return TypeAgentClosed }
func (*AgentSessionContinued) EventType() string        { return TypeAgentSessionContinued }
func (*ModelUnavailable) EventType() string             { return TypeModelUnavailable }
func (*DecisionStarted) EventType() string              { return TypeDecisionStarted }
func (*DecisionRetry) EventType() string                { return TypeDecisionRetry }
func (*DecisionAdmissionQueued) EventType() string      { return TypeDecisionQueued }
func (*DecisionCompleted) EventType() string            { return TypeDecisionCompleted }
func (*ModelStarted) EventType() string                 { return TypeModelStarted }
func (*ModelCompleted) EventType() string               { return TypeModelCompleted }
func (*ModelRetry) EventType() string                   { return TypeModelRetry }
func (*MessageDelta) EventType() string                 { return TypeMessageDelta }
func (*ToolStarted) EventType() string                  { return TypeToolStarted }
func (*ToolCompleted) EventType() string                { return TypeToolCompleted }
func (*BackgroundStarted) EventType() string            { return TypeBackgroundStarted }
func (*BackgroundActivity) EventType() string           { return TypeBackgroundActivity }
func (*BackgroundCompleted) EventType() string          { return TypeBackgroundCompleted }
func (*CompactionStarted) EventType() string            { return TypeCompactionStarted }
func (*CompactionCompleted) EventType() string          { return TypeCompactionCompleted }
func (*PlanUpdated) EventType() string                  { return TypePlanUpdated }
func (*Usage) EventType() string                        { return TypeUsage }
func (*TestCase) EventType() string                     { return TypeTestCase }
func (*MCPProgress) EventType() string                  { return TypeMCPProgress }
func (*MCPLog) EventType() string                       { return TypeMCPLog }
func (*WorktreeAcquired) EventType() string             { return TypeWorktreeAcquired }
func (*WorktreeReconciled) EventType() string           { return TypeWorktreeReconciled }
func (*WorktreeReleased) EventType() string             { return TypeWorktreeReleased }
func (*WorkflowLog) EventType() string                  { return TypeWorkflowLog }
func (*WorkflowPhase) EventType() string                { return TypeWorkflowPhase }
func (*WorkflowChildStarted) EventType() string         { return TypeWorkflowChildStarted }
func (*WorkflowChildCompleted) EventType() string       { return TypeWorkflowChildCompleted }
func (*CallReplayed) EventType() string                 { return TypeCallReplayed }

// Kinds lists a zero value of every kind, in the order the vocabulary's
// documents list them.
func Kinds() []Details {
	return []Details{
		&AgentAdmissionQueued{}, &AgentInitializationStarted{}, &AgentInitializationCompleted{},
		&AgentInvocationStarted{}, &AgentInvocationCompleted{}, &AgentStructuredOutputRetry{}, &AgentClosed{},
		&AgentSessionContinued{}, &DecisionStarted{}, &DecisionAdmissionQueued{}, &DecisionRetry{}, &DecisionCompleted{},
		&ModelUnavailable{}, &ModelStarted{}, &ModelCompleted{}, &ModelRetry{}, &MessageDelta{},
		&ToolStarted{}, &ToolCompleted{}, &BackgroundStarted{}, &BackgroundActivity{}, &BackgroundCompleted{},
		&CompactionStarted{}, &CompactionCompleted{}, &PlanUpdated{}, &Usage{}, &TestCase{}, &MCPProgress{}, &MCPLog{},
		&WorktreeAcquired{}, &WorktreeReconciled{}, &WorktreeReleased{},
		&WorkflowLog{}, &WorkflowPhase{}, &WorkflowChildStarted{}, &WorkflowChildCompleted{},
		&CallReplayed{},
	}
}

// kindTypes maps each event type to its details type; never changed
// after it is built.
var kindTypes = func() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for _, k := range Kinds() {
		m[k.EventType()] = reflect.TypeOf(k).Elem()
	}
	return m
}()

// newDetails returns a new zero value of kind typ, or nil for an unknown
// kind.
func newDetails(typ string) Details {
	t, ok := kindTypes[typ]
	if !ok {
		return nil
	}
	return reflect.New(t).Interface().(Details)
}
