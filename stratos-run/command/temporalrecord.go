package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/stratos-run/invocation"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

// temporalStateFile, in a Temporal run's record, is where stratos-temporal
// writes how the run ended (temporalapi.RunState) for this process, which
// writes it into the record and removes the file.
const temporalStateFile = ".temporal-state.json"

// The defaults of the Temporal connection variables (the temporal CLI's),
// and of the task queue (stratos-temporal's).
const (
	defaultTemporalAddress   = "127.0.0.1:7233"
	defaultTemporalNamespace = "default"
	defaultTaskQueue         = "stratos"
)

// temporalRecord is the record here of a run on the Temporal engine.
type temporalRecord struct {
	dir string
	run records.TemporalRun
}

// beginTemporalRecord begins the run's record (the ID a detached run was
// given, else a new one): the workflow as named, the input when it was
// given inline or in a file, and where the run's Temporal workflow is.
func beginTemporalRecord(ctx context.Context, cmd *cli.Command) (*temporalRecord, error) {
	id, err := backgroundID(cmd)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	if id == "" {
		if id, err = newExecutionID(now); err != nil {
			return nil, err
		}
	}
	runsDir, err := records.Dir()
	if err != nil {
		return nil, clierr.New(runapi.CodeRunRecordFailed, "%v", err).Wrap(err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, clierr.New(runapi.CodeRunRecordFailed, "read the working directory: %v", err).Wrap(err)
	}
	run := records.TemporalRun{WorkflowID: "stratos-" + id, Address: envOr("TEMPORAL_ADDRESS", defaultTemporalAddress),
		Namespace: envOr("TEMPORAL_NAMESPACE", defaultTemporalNamespace), TaskQueue: envOr("STRATOS_TASK_QUEUE", defaultTaskQueue)}
	rec, err := records.Begin(runsDir, records.Invocation{ExecutionID: id, Workflow: cmd.Args().First(), Cwd: cwd,
		Input: recordedInput(ctx, cmd.String("input")), PID: os.Getpid(), StartedAt: now, Temporal: &run})
	if err != nil {
		return nil, err
	}
	return &temporalRecord{dir: rec.Dir(), run: run}, nil
}

// recordedInput is the input as the record keeps it: given inline or in a
// file (read again by the worker's stratos run); null when it is read from
// stdin (which goes to the run unread) or cannot be read.
func recordedInput(ctx context.Context, arg string) json.RawMessage {
	if arg == "-" {
		return json.RawMessage("null")
	}
	in, err := invocation.ReadInput(ctx, arg, nil)
	if err != nil {
		return json.RawMessage("null")
	}
	return in
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// finish writes the run's end into its record: the state stratos-temporal
// wrote, else a failure (it exited with code before the run ended: it
// could not start it, or lost the server). A run given up on after
// Ctrl-C (code 130, no state) is left running: it may still be ending on
// the workers, and the runs commands ask Temporal how it ended.
func (r *temporalRecord) finish(stateFile string, code int, log hclog.Logger) {
	data, err := os.ReadFile(stateFile)
	_ = os.Remove(stateFile)
	var state temporalapi.RunState
	switch {
	case err == nil && json.Unmarshal(data, &state) == nil && state.Status != "":
		_, err = runs.FinishTemporal(r.dir, state)
	case errors.Is(err, fs.ErrNotExist) && code == 130:
		return
	default:
		end := temporalapi.RunState{Status: records.StatusFailed, ExitCode: &code,
			Error: errorJSON(temporalapi.CodeRunFailed, fmt.Sprintf("stratos-temporal exited with code %d before the run ended (its error is above)", code))}
		_, err = runs.FinishTemporal(r.dir, end)
	}
	if err != nil {
		log.Warn("could not write how the run ended into its record", "dir", r.dir, "error", err)
	}
}

func errorJSON(code, message string) json.RawMessage {
	data, _ := json.Marshal(clierr.EnvelopeBody{Code: code, Message: message})
	return data
}
