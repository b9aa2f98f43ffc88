package runs

import (
	"context"
	"encoding/json"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// TemporalRuns asks the Temporal server about runs on the Temporal
// engine. The runs package does not link the Temporal SDK (every stratos
// command would pay for it): the command gives an implementation that
// asks stratos-temporal.
type TemporalRuns interface {
	// Describe is the run's state as its workflow reports it.
	Describe(ctx context.Context, run records.TemporalRun) (temporalapi.RunState, error)
	// Cancel cancels the run's workflow and returns its state once it
	// ended (or when the wait for that is over).
	Cancel(ctx context.Context, run records.TemporalRun) (temporalapi.RunState, error)
}

// temporalWorkflow is the workflow ID of a run on the Temporal engine, ""
// for a local run.
func temporalWorkflow(inv records.Invocation) string {
	if inv.Temporal == nil {
		return ""
	}
	return inv.Temporal.WorkflowID
}

// submittedHere is the set of the Temporal workflows of the runs in list
// submitted from it: a worker's attempt at one of them (Run.AttemptOf)
// is the same run, listed once.
func submittedHere(list []Run) map[string]bool {
	out := map[string]bool{}
	for _, r := range list {
		if r.temporalWorkflow != "" {
			out[r.temporalWorkflow] = true
		}
	}
	return out
}

func engineOf(inv records.Invocation) string {
	if inv.Temporal != nil {
		return records.EngineTemporal
	}
	return ""
}

// reconcileTemporal is reconcile for a run on the Temporal engine that
// its record says is running. While the process that submitted it is
// there, that process writes its end; once it is gone (killed, its
// machine died, or the record is read on another machine) Temporal
// answers, and a run it says ended gets that end in its record. Without
// an answer (no TemporalRuns, or a server that does not answer, which
// the TemporalRuns reports) the record stays as it is.
func (s *Store) reconcileTemporal(dir string, st records.Status, inv records.Invocation) (records.Status, error) {
	if s.Temporal == nil {
		return st, nil
	}
	if ours, err := ownProcess(inv); err != nil || ours {
		return st, nil
	}
	state, err := s.Temporal.Describe(context.Background(), *inv.Temporal)
	if err != nil || state.Status == temporalapi.StateRunning {
		return st, nil
	}
	return FinishTemporal(dir, state)
}

// FinishTemporal writes the end Temporal reported into the record in dir.
func FinishTemporal(dir string, state temporalapi.RunState) (records.Status, error) {
	f := records.Final{Status: state.Status, Output: state.Output}
	if state.ExitCode != nil {
		f.ExitCode = *state.ExitCode
	}
	if state.EndedAt != nil {
		f.EndedAt = *state.EndedAt
	}
	if state.Status != records.StatusSucceeded {
		f.Error = state.Error
		if len(state.Error) == 0 {
			f.Error = json.RawMessage(`null`)
		}
	}
	if state.EventsCut {
		f.Warnings = []string{"the events of this run are cut short here: the worker that ran its code keeps them all"}
	}
	return records.FinishElsewhere(dir, f, state.Events)
}

// stopTemporal cancels a Temporal run whose submitter is gone (the
// submitter's own process is signalled as locally when it is there), and
// returns the run as it ended.
func (s *Store) stopTemporal(ctx context.Context, id string, inv records.Invocation) (Run, error) {
	if s.Temporal == nil {
		return Run{}, clierr.New(runapi.CodeStopFailed, "run %s runs on Temporal, and nothing here can reach it", id)
	}
	state, err := s.Temporal.Cancel(ctx, *inv.Temporal)
	if err != nil {
		return Run{}, err
	}
	if state.Status == temporalapi.StateRunning {
		return Run{}, clierr.New(runapi.CodeStopTimeout, "run %s (Temporal workflow %s) was cancelled and has not ended yet", id, inv.Temporal.WorkflowID).
			WithDetails(map[string]any{"executionId": id, "workflowId": inv.Temporal.WorkflowID})
	}
	if _, err := FinishTemporal(filepath.Join(s.Dir, id), state); err != nil {
		return Run{}, unreadable(id, err)
	}
	return s.Load(id)
}
