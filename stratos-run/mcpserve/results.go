package mcpserve

import (
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/manifest"
)

// The tools' inputs and results. Their JSON Schemas (the tools' input and
// output schemas) are inferred from these types, so the field comments in
// the jsonschema tags are what a client's model reads.

// Workflow is one workflow of `stratos list --json`.
type Workflow struct {
	Name             string `json:"name" jsonschema:"the workflow's name, as run_workflow takes it"`
	ShortDescription string `json:"shortDescription" jsonschema:"what the workflow does, in one line"`
	Root             string `json:"root" jsonschema:"project or user: the discovery root it was found in"`
	Dir              string `json:"dir" jsonschema:"the workflow's directory"`
	Status           string `json:"status" jsonschema:"built, stale or not-built (run_workflow builds when needed)"`
	Reason           string `json:"reason,omitempty" jsonschema:"why it is not built"`
}

// WorkflowList is the result of list_workflows.
type WorkflowList struct {
	Workflows []Workflow         `json:"workflows"`
	Problems  []manifest.Problem `json:"problems,omitempty" jsonschema:"workflow directories whose workflow.yaml has problems"`
}

// NameInput names a workflow.
type NameInput struct {
	Name string `json:"name" jsonschema:"the workflow's name (list_workflows)"`
}

// Description is the result of describe_workflow (`stratos describe --json`).
type Description struct {
	Name             string         `json:"name"`
	ShortDescription string         `json:"shortDescription"`
	LongDescription  string         `json:"longDescription,omitempty" jsonschema:"the workflow's manual"`
	Input            map[string]any `json:"input" jsonschema:"the JSON Schema of the workflow's input (run_workflow's input)"`
	Output           map[string]any `json:"output" jsonschema:"the JSON Schema of the workflow's output"`
}

// RunInput is the input of run_workflow.
type RunInput struct {
	Name      string         `json:"name" jsonschema:"the workflow's name (list_workflows)"`
	Input     map[string]any `json:"input,omitempty" jsonschema:"the workflow's input, matching the input schema of describe_workflow; default {}"`
	Overrides map[string]any `json:"overrides,omitempty" jsonschema:"agent configuration overrides by agent id, as stratos run --overrides"`
}

// RunResult is the result of run_workflow and of a wf_<name> tool.
type RunResult struct {
	ExecutionID string `json:"executionId" jsonschema:"the run's ID (run_status, run_logs, stratos runs show)"`
	Workflow    string `json:"workflow"`
	Output      Object `json:"output" jsonschema:"the workflow's output, matching its output schema"`
}

// Started is the result of start_workflow.
type Started struct {
	ExecutionID string `json:"executionId" jsonschema:"the run's ID: run_result waits for its output, run_status and run_logs watch it, stop_run stops it"`
	Workflow    string `json:"workflow"`
}

// RunRef names a run.
type RunRef struct {
	ID string `json:"id" jsonschema:"the run's execution ID or a unique prefix of it"`
}

// Run is one run as `stratos runs list --json` and `stratos runs show
// --json` print it; fields that only show prints are filled by run_status.
type Run struct {
	ExecutionID string         `json:"executionId"`
	Workflow    string         `json:"workflow"`
	Status      string         `json:"status" jsonschema:"running, succeeded, failed, cancelled, interrupted or crashed"`
	StartedAt   string         `json:"startedAt,omitempty"`
	EndedAt     string         `json:"endedAt,omitempty"`
	DurationMs  int64          `json:"durationMs,omitempty"`
	PID         int            `json:"pid,omitempty"`
	ExitCode    *int           `json:"exitCode,omitempty"`
	Dir         string         `json:"dir,omitempty" jsonschema:"the run record's directory"`
	Output      Object         `json:"output,omitempty" jsonschema:"the output of a succeeded run"`
	Error       map[string]any `json:"error,omitempty" jsonschema:"how a run that did not succeed ended: code, message, ..."`
	Events      map[string]any `json:"events,omitempty" jsonschema:"the number of events, in total and by type"`
}

// RunStatus is the result of run_status.
type RunStatus struct {
	Run Run `json:"run"`
}

// LogsInput is the input of run_logs.
type LogsInput struct {
	ID    string `json:"id" jsonschema:"the run's execution ID or a unique prefix of it"`
	Limit int    `json:"limit,omitempty" jsonschema:"only the last this many events; 0 is all"`
}

// RunLogs is the result of run_logs.
type RunLogs struct {
	ExecutionID string           `json:"executionId"`
	Total       int              `json:"total" jsonschema:"how many events the run has recorded"`
	Events      []eventapi.Event `json:"events" jsonschema:"the run's events, oldest first, in the event vocabulary's current shapes (lines of version 0 are mapped)"`
}

// Stopped is the result of stop_run.
type Stopped struct {
	Run Run `json:"run" jsonschema:"the run once it has ended"`
}
