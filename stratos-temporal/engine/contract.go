// Package engine is the Temporal side of a Stratos run: the one Temporal
// workflow every run is, the names of its update, signals, query and
// activities, and the payloads that cross between the submitting process,
// the worker running the workflow code and the workers running agents.
// Everything here is data every party decodes with these types; nothing in
// it may carry a credential (payloads are stored in the Temporal server's
// history).
package engine

import (
	"encoding/json"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// Names of the workflow and its handlers, as Temporal registers them.
const (
	WorkflowRun = "stratos.run"

	// UpdateExecute asks the run's workflow to execute an agent (or to
	// answer from its record of finished executes).
	UpdateExecute = "agent.execute"
	// SignalCancelAgent cancels an agent's running execute.
	SignalCancelAgent = "agent.cancel"
	// SignalJournal appends an entry of the workflow code's journal (a
	// child workflow, an MCP call, a decision, a budget reading).
	SignalJournal = "journal.append"
	// QueryJournal returns the run's journal: what a retried workflow-code
	// activity replays.
	QueryJournal = "journal"

	ActivityRunCode      = "stratos.runCode"
	ActivityAgentExecute = "stratos.agentExecute"
	ActivityCloseRun     = "stratos.closeRun"
)

// RunRequest is a run as submitted: stratos run's arguments, run on a
// worker in the same working directory.
type RunRequest struct {
	// Cwd is the submitting directory; the worker that runs the workflow
	// code runs it there.
	Cwd string `json:"cwd"`
	// Args are stratos run's arguments after "run", without --engine.
	Args []string `json:"args"`
	// Stdin is the submitter's standard input when an argument reads it
	// (--input -); nil otherwise.
	Stdin []byte `json:"stdin,omitempty"`
	// AgentQueue is the task queue agent executes go to.
	AgentQueue string `json:"agentQueue"`
}

// RunResult is what stratos run printed and how it exited, on the worker
// that ran the workflow code.
type RunResult struct {
	Stdout   []byte `json:"stdout"`
	Stderr   []byte `json:"stderr"`
	ExitCode int    `json:"exitCode"`
	// Worker names the worker that ran the code (its last attempt).
	Worker string `json:"worker"`
	// Attempt counts the attempts at running the code (1: no retry).
	Attempt int `json:"attempt"`
}

// ExecuteRequest is one agent execute sent to the run's workflow by the
// agent host of the workflow code.
type ExecuteRequest struct {
	// Init is how the workflow code's host was initialized; an agent
	// worker initializes its own host with it (its own run directory).
	Init agentproto.InitializeParams `json:"init"`
	// Params is the execute exactly as the SDK sent it.
	Params json.RawMessage `json:"params"`
	// Agent identifies the agent object across its executes (the
	// execution's ID and the object's ID): its executes go to the worker
	// that holds its conversation.
	Agent string `json:"agent"`
	// Call is the execute's ordinal on the agent object.
	Call int `json:"call"`
	// Place is the execute's journal key (nil: it has none, and is never
	// answered from the record).
	Place *agentproto.ExecutePlace `json:"place,omitempty"`
	// Queue is where the execute goes unless the agent's conversation is
	// on a worker: its harness's queue, or the run's agent queue.
	Queue string `json:"queue,omitempty"`
	// Harness is the harness the execute names ("" for none); Unseen says
	// no worker was seen polling its queue, so the execute waits only a
	// bounded time for one and then fails with harness_unavailable.
	Harness string `json:"harness,omitempty"`
	Unseen  bool   `json:"unseen,omitempty"`
}

// ExecuteReply is an execute's outcome: the host's result, or its error
// response, and the events the agent's host recorded for it.
type ExecuteReply struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *RPCError       `json:"error,omitempty"`
	// Events are the agent's events, as lines of events.jsonl, with the
	// worker named on each.
	Events []json.RawMessage `json:"events,omitempty"`
	// Worker names the worker that ran the execute; Queue is its own task
	// queue, where the agent's next executes go.
	Worker string `json:"worker"`
	Queue  string `json:"queue"`
}

// RPCError is an error response of the agent host, passed on unchanged.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// CancelAgent names the agent whose running execute is cancelled.
type CancelAgent struct {
	Agent string `json:"agent"`
	Call  int    `json:"call"`
}

// CloseRun asks a worker to close the agent host it kept for a run.
type CloseRun struct {
	RunID string `json:"runId"`
}

// AgentExecute is an agent worker's activity input: the request and the
// run it belongs to (the workflow ID, which keys the worker's host).
type AgentExecute struct {
	RunID   string         `json:"runId"`
	Request ExecuteRequest `json:"request"`
}

// Progress is what the code's activity reports with each heartbeat: the
// end of the console output so far, so that the submitting terminal shows
// it while the run runs.
type Progress struct {
	Worker  string `json:"worker"`
	Attempt int    `json:"attempt"`
	// Total counts the bytes written so far; Tail is the last of them.
	Total int64  `json:"total"`
	Tail  []byte `json:"tail"`
}
