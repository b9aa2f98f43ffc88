package temporalapi

import (
	"encoding/json"
	"time"
)

// RunState is a Temporal run as its workflow reports it: what the
// submitting machine's run record takes from Temporal. `stratos-temporal
// run --state-file` writes it when the run ends, and `stratos-temporal
// describe` and `cancel` print it (the runs commands ask when the process
// that submitted the run is gone).
type RunState struct {
	WorkflowID string `json:"workflowId"`
	// Status is running, or how the run ended: a final status of a run
	// record (succeeded, failed, cancelled, interrupted).
	Status   string     `json:"status"`
	ExitCode *int       `json:"exitCode,omitempty"`
	EndedAt  *time.Time `json:"endedAt,omitempty"`
	// Output (succeeded) or Error (every other end) as the record of the
	// code's worker holds them; Error is an error envelope's error object.
	Output json.RawMessage `json:"output,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
	// Events are the lines of the run's events.jsonl on the code's worker
	// (at most MaxRecordEvents bytes of them, whole lines from the start;
	// EventsCut says lines were left out).
	Events    []json.RawMessage `json:"events,omitempty"`
	EventsCut bool              `json:"eventsCut,omitempty"`
	// Worker names the worker that ran the code (its last attempt), and
	// WorkerRecord the execution ID of the record there.
	Worker       string `json:"worker,omitempty"`
	WorkerRecord string `json:"workerRecord,omitempty"`
}

// EnvRun names, in the environment of the stratos run a worker starts for
// an attempt at a run's code, the run's Temporal workflow ID: the attempt's
// record keeps it (AttemptOf), so that the runs commands of a machine
// where the same home both submitted the run and ran its code show the
// run once.
const EnvRun = "STRATOS_TEMPORAL_RUN"

// MaxRecordEvents bounds the events a run's result carries back from the
// code's worker (a Temporal payload, beside up to 1 MiB of console output;
// the worker's record keeps them all).
const MaxRecordEvents = 512 << 10

// StateRunning is RunState.Status of a run that has not ended.
const StateRunning = "running"

// StatusOfExit is the final status of a run known only by its exit code.
func StatusOfExit(code int) string {
	switch code {
	case 0:
		return "succeeded"
	case 130:
		return "cancelled"
	default:
		return "failed"
	}
}

// AsCancelled is s for a run that was cancelled from outside (Ctrl-C on
// the submitting terminal, runs stop): a failure is the cancellation's, so
// the run ends cancelled with exit code 130, as a local run that is
// interrupted does. (The run's workflow cancels its agents while its code
// is being interrupted, so the code may fail with an agent's cancellation
// before it sees its own.) A run that ended otherwise is left as it ended.
func (s RunState) AsCancelled() RunState {
	if s.Status == "failed" {
		code := 130
		s.Status, s.ExitCode = "cancelled", &code
	}
	return s
}
