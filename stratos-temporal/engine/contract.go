// Package engine is the Temporal side of a Stratos run: the Temporal
// workflow every run is, the workflow every agent execute is, the names of
// their signals, query and activities, and the payloads that cross between the submitting process,
// the worker running the workflow code and the workers running agents.
// Everything here is data every party decodes with these types; nothing in
// it may carry a credential (payloads are stored in the Temporal server's
// history).
package engine

import (
	"encoding/json"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
)

// Names of the workflow and its handlers, as Temporal registers them.
const (
	WorkflowRun = "stratos.run"
	// WorkflowExecute is one agent execute of a run (ExecuteID names it).
	WorkflowExecute = "stratos.execute"

	// SignalRecord tells the run's workflow what the code's agent host
	// saw since its last one (Record): executes started and finished, and
	// the journal's new entries. One signal carries all that accumulated
	// while the one before was being sent: each signal is a write of the
	// run's history and a workflow task, which a signal per execute's start
	// and end made the pace of a fan-out.
	SignalRecord = "record"
	// SignalExecuteStarted, SignalExecuteFinished and SignalJournal are the
	// one-item signals of earlier versions, still handled for the runs
	// whose histories hold them.
	SignalExecuteStarted  = "execute.started"
	SignalExecuteFinished = "execute.finished"
	SignalJournal         = "journal.append"
	// QueryJournal returns the run's journal: what a retried workflow-code
	// activity replays.
	QueryJournal = "journal"
	// QueryRepository returns the run's repository (RunRequest.Repository):
	// what an agent worker without the run's directory checks out.
	QueryRepository = "repository"

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
	// Repository names where a worker without Cwd gets the run's
	// repository (nil: the run names none, and its workers need Cwd).
	Repository *Repository `json:"repository,omitempty"`
	// ResumeOf is the workflow ID of the run this one resumes (stratos
	// runs resume; "" for a first run). Its journal, which its closed
	// workflow still answers, is what the code's first attempt replays;
	// a retried attempt replays its own run's journal first and this one
	// for the calls its own lacks.
	ResumeOf string `json:"resumeOf,omitempty"`
}

// Repository is a run's git repository as its workers get it: the remote
// (a URL without credentials) at the submitter's commit.
type Repository struct {
	Remote string `json:"remote"`
	Commit string `json:"commit"`
	// Root is the top of the submitter's work tree, and Subdir the
	// submitting directory in it (slash-separated, "." for the top).
	Root   string `json:"root"`
	Subdir string `json:"subdir"`
}

// Branch is an agent branch a worker pushed to the run's remote after an
// execute: its name (stratos/<worktree>), commit and remote.
type Branch struct {
	Name   string `json:"name"`
	Commit string `json:"commit"`
	Remote string `json:"remote"`
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
	// State is how the run ended as the worker's run record says, for the
	// submitting machine's record.
	State temporalapi.RunState `json:"state"`
}

// maxResult bounds what a run's result carries (a Temporal payload; the
// server refuses one of more than 2 MiB by default).
const maxResult = 3 << 19

// Fit leaves out of the result's state what would make it larger than
// maxResult: the output when stdout holds it (FullState puts it back),
// then the events (cut; the worker's record keeps them).
func (r *RunResult) Fit() {
	if len(r.State.Output) > 0 && json.Valid(r.Stdout) {
		r.State.Output = nil
	}
	size := len(r.Stdout) + len(r.Stderr) + len(r.State.Output) + len(r.State.Error)
	for _, e := range r.State.Events {
		size += len(e)
	}
	if size > maxResult && len(r.State.Events) > 0 {
		r.State.Events, r.State.EventsCut = nil, true
	}
}

// FullState is the run's state with its output, which stdout holds when
// Fit left it out of the state.
func (r RunResult) FullState() temporalapi.RunState {
	s := r.State
	if len(s.Output) == 0 && s.Status == "succeeded" && json.Valid(r.Stdout) {
		s.Output = r.Stdout
	}
	return s
}

// ExecuteRequest is one agent execute, as the agent host of the workflow
// code asks for it.
type ExecuteRequest struct {
	// Init is how the workflow code's host was initialized; an agent
	// worker initializes its own host with it (its own run directory).
	Init agentproto.InitializeParams `json:"init"`
	// Params is the execute exactly as the SDK sent it.
	Params json.RawMessage `json:"params"`
	// Agent identifies the agent object across its executes (the
	// execution's ID and the object's ID), in the execute's history.
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
	// Branch is the agent's worktree branch as the worker pushed it to
	// the run's remote (nil: the agent has no worktree, or the run no
	// remote); the code's repository fetches it.
	Branch *Branch `json:"branch,omitempty"`
}

// MaxReplyBytes bounds an execute's reply as a Temporal payload: the
// server refuses one of more than 2 MiB unless its operator set another
// limit (limit.blobSize.error); the margin is for the reply's other
// fields, its encoding and the codec's.
const MaxReplyBytes = 2<<20 - 16<<10

// Bytes is about the size of the reply's payload: its answer and events.
func (r *ExecuteReply) Bytes() int {
	n := len(r.Result)
	for _, e := range r.Events {
		n += len(e) + 1
	}
	return n
}

// RPCError is an error response of the agent host, passed on unchanged.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// AgentError is the agent host's error response for the agent error code
// (an agentproto code the workflow code can catch), its details naming the
// Temporal engine's own error code (a temporalapi code): what an execute
// fails with when the engine, not the agent, failed it.
func AgentError(code, message, temporalCode string) *RPCError {
	data, _ := json.Marshal(agentErrorData{Code: code, Details: agentErrorDetails{TemporalError: temporalCode}})
	return &RPCError{Code: agentproto.RPCAgentError, Message: message, Data: data}
}

// agentErrorData is the data of the host's agent errors, as the SDK reads
// it.
type agentErrorData struct {
	Code    string            `json:"code"`
	Details agentErrorDetails `json:"details"`
}

type agentErrorDetails struct {
	TemporalError string `json:"temporalError"`
}

// Record is what one SignalRecord carries, applied in this order: the
// executes started, the journal's entries (a child workflow, an MCP call, a
// decision, a budget reading), in the order the code wrote them, and the
// executes finished.
type Record struct {
	Started  []ExecuteStarted   `json:"started,omitempty"`
	Journal  []journalapi.Entry `json:"journal,omitempty"`
	Finished []ExecuteFinished  `json:"finished,omitempty"`
}

// ExecuteStarted names an execute workflow of the run, which the run's
// workflow cancels if it is still running when the run ends.
type ExecuteStarted struct {
	ID string `json:"id"`
}

// ExecuteFinished is an execute workflow's end, as the code's agent host
// saw it: the journal entry of a successful execute that has a place (nil
// otherwise) and the queue of the worker that keeps an agent host for the
// run.
type ExecuteFinished struct {
	ID    string            `json:"id"`
	Queue string            `json:"queue,omitempty"`
	Entry *journalapi.Entry `json:"entry,omitempty"`
}

// CloseRun asks a worker to close the agent host it kept for a run.
type CloseRun struct {
	RunID string `json:"runId"`
}

// AgentExecute is an execute workflow's input and an agent worker's
// activity input: the request and the run it belongs to (the run's
// workflow ID, which keys the worker's host).
type AgentExecute struct {
	RunID   string         `json:"runId"`
	Request ExecuteRequest `json:"request"`
	// Sticky is the own queue of the worker holding the agent's
	// conversation ("" when no execute of the agent finished yet).
	Sticky string `json:"sticky,omitempty"`
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
	// EventsTotal counts the bytes of complete lines in the attempt's
	// events.jsonl; EventsTail is the last of those lines.
	EventsTotal int64  `json:"eventsTotal,omitempty"`
	EventsTail  []byte `json:"eventsTail,omitempty"`
}
