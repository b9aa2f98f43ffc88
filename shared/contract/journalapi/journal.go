// Package journalapi is the durable-run journal: the one typed definition
// of every line of a run record's journal.jsonl. stratos run writes its
// first line (the header); the workflow runtime in the SDK appends one
// entry per finished side effect it performs for the workflow (an agent
// execute, a child workflow, a direct MCP tool call, a decision, a budget
// reading), each written before
// workflow code sees the result; `stratos runs resume` reads the journal
// of the execution it resumes and hands its entries to the runtime, which
// answers every call whose place and input match from them instead of
// doing it again.
//
// An entry names where its call happened, never when: the invocation path
// (the top-level workflow, then "<child>#<k>" per child level), the
// agent's configuration, label and object, the call's ordinal, and the
// SHA-256 of the call's input in canonical JSON. Timing order is not part
// of a key, so fan-outs replay whatever order they start in.
package journalapi

import (
	"encoding/json"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// Version is the journal format version every line carries. It changes
// when an entry's meaning or a field's spelling changes; a reader refuses
// a journal of a newer version rather than guess at it.
const Version = 1

// File is the journal's name in a run record's directory.
const File = "journal.jsonl"

// Kind is what an entry records.
type Kind string

// The kinds of journal lines.
const (
	// KindHeader is the first line: which execution wrote the journal, of
	// what code and input.
	KindHeader Kind = "header"
	// KindExecute is a finished agent execute.
	KindExecute Kind = "agent.execute"
	// KindChildStarted is a child workflow invocation that started: it
	// fixes the child's place (its k) for the entries inside it.
	KindChildStarted Kind = "child.started"
	// KindChildCompleted is a child workflow invocation that ended.
	KindChildCompleted Kind = "child.completed"
	// KindBudget is a reading of the run's spending by workflow code.
	KindBudget Kind = "budget.read"
	// KindMCPCall is a finished tool call workflow code made on an MCP
	// server directly (through its generated wrapper).
	KindMCPCall Kind = "mcp.call"
	// KindDecision is a finished decision(question): its answer or its
	// error.
	KindDecision Kind = "decision.call"
)

// Entry is one line of journal.jsonl. Exactly one of Header, Execute,
// Child, Budget, MCP and Decision is set, the one Kind names.
type Entry struct {
	V    int       `json:"v"`
	Kind Kind      `json:"kind"`
	At   time.Time `json:"at"`
	// Path is the invocation the call happened in: the top-level
	// workflow's name, then "/<child>#<k>" for each child level, k
	// counting the parent's invocations of that child (1, 2, ...).
	Path string `json:"path,omitempty"`
	// InputSHA256 is the hex SHA-256 of the call's input in canonical
	// JSON (object keys sorted, no spaces): an execute's prompt, template
	// variables and agent settings; a child's input.
	InputSHA256 string `json:"inputSha256,omitempty"`
	// Replayed marks an entry served from an earlier execution's journal
	// rather than performed: copied so that the newest journal alone is
	// enough to resume from.
	Replayed bool `json:"replayed,omitempty"`

	Header   *Header        `json:"header,omitempty"`
	Execute  *Execute       `json:"execute,omitempty"`
	Child    *Child         `json:"child,omitempty"`
	Budget   *BudgetReading `json:"budget,omitempty"`
	MCP      *MCPCall       `json:"mcp,omitempty"`
	Decision *DecisionCall  `json:"decision,omitempty"`
}

// Header is the journal's first line.
type Header struct {
	ExecutionID string `json:"executionId"`
	Workflow    string `json:"workflow"`
	// ResumedFrom is the execution this one resumes ("" for a first run).
	ResumedFrom string `json:"resumedFrom,omitempty"`
	// BuildKeys are the build records' keys of the workflows the run could
	// execute (the top-level one and its children), by workflow name: a
	// different key on resume means the code changed.
	BuildKeys map[string]string `json:"buildKeys"`
	// InputSHA256 is the hash of the run's input, as entries hash theirs.
	InputSHA256 string `json:"inputSha256"`
}

// Execute is a finished agent execute: its value or its error.
type Execute struct {
	ConfigID string `json:"configId,omitempty"`
	Label    string `json:"label,omitempty"`
	// Agent numbers the agent objects of one configuration and label in
	// one invocation (1, 2, ...), so that the calls of one conversation
	// stay together; a resumed object keeps the number of the journal's
	// agent it was matched with.
	Agent int `json:"agent"`
	// Call is the execute's ordinal on its agent object (1, 2, ...).
	Call int `json:"call"`
	// Text is the reply of an agent without an output schema; Value the
	// validated value of one with.
	Text  *string         `json:"text,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
	Error *Error          `json:"error,omitempty"`
	// Usage is what the execute's model turns used (nil: none reported).
	Usage *agentproto.CallUsage `json:"usage,omitempty"`
	// Session is the harness conversation the execute ran in: a resumed
	// run's agent continues it.
	Session *agentproto.SessionRef `json:"session,omitempty"`
	// Prompt is the prompt the harness was sent, kept only for a harness
	// that cannot continue a session (agentproto.ExecuteResult.Prompt): a
	// resumed run's agent then starts a new session whose first prompt
	// carries the replayed exchange.
	Prompt *string `json:"prompt,omitempty"`
}

// Child is a child workflow invocation: started (Output and Error empty)
// or completed.
type Child struct {
	Name string `json:"name"`
	K    int    `json:"k"`
	// Status is how a completed child ended: succeeded, failed or
	// cancelled.
	Status string          `json:"status,omitempty"`
	Output json.RawMessage `json:"output,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// BudgetReading is what budget.spent() (or remaining()) returned.
type BudgetReading struct {
	// Ordinal counts the readings of one invocation (1, 2, ...).
	Ordinal          int     `json:"ordinal"`
	Tokens           int64   `json:"tokens"`
	USD              float64 `json:"usd"`
	Turns            int64   `json:"turns"`
	UnknownCostTurns int64   `json:"unknownCostTurns"`
}

// MCPCall is a direct MCP tool call: its result (what the wrapper's method
// resolved to) or its typed error.
type MCPCall struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// K numbers the calls of one tool of one server in one invocation
	// (1, 2, ...); calls with the same arguments are matched as a
	// multiset, so K is a place, not an order.
	K      int             `json:"k"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// DecisionCall is a decision: the answer it returned, or its typed error.
type DecisionCall struct {
	// K numbers the decisions of one invocation (1, 2, ...); decisions
	// with the same input are matched as a multiset, so K is a place, not
	// an order.
	K int `json:"k"`
	// Result is the decision's validated answer as the host returned it
	// (a choice's option id, not the SDK's option object).
	Result *agentproto.DecisionResult `json:"result,omitempty"`
	Error  *Error                     `json:"error,omitempty"`
}

// Error is a call's typed error, as the SDK reported it.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Report is what resuming came to, as the runtime reports it with its
// result and the resumed execution's status.json keeps it.
type Report struct {
	// From is the execution resumed.
	From string `json:"from"`
	// ReplayedCalls counts the calls answered from the journal.
	ReplayedCalls int `json:"replayedCalls"`
	// ReplayedUsage is what the replayed executes used when they were
	// made; nothing was spent on them again.
	ReplayedUsage *agentproto.CallUsage `json:"replayedUsage,omitempty"`
	// Divergences are the first call of each invocation that did not
	// match the journal (later calls of that invocation ran for real).
	Divergences []Divergence `json:"divergences,omitempty"`
	// ChangedWorkflows are the workflows whose build key differs from the
	// journal header's: their code changed since the resumed execution.
	ChangedWorkflows []string `json:"changedWorkflows,omitempty"`
}

// Divergence is where a resumed run first took another way than the
// journal in one invocation.
type Divergence struct {
	// Path is the invocation.
	Path string `json:"path"`
	// Call names the call ("agent \"writer\" (object 1) call 2").
	Call   string `json:"call"`
	Reason string `json:"reason"`
}
