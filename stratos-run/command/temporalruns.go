package command

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// maxTemporalAnswer bounds what is read of stratos-temporal's answer: a
// run's state, its events included.
const maxTemporalAnswer = 4 << 20

// temporalAnswerTTL is how long an answer about a run is reused: runs
// logs --follow reads the run's status ten times a second.
const temporalAnswerTTL = time.Second

// temporalRuns asks the Temporal server about runs through
// stratos-temporal (stratos run does not link the Temporal SDK), with the
// server and namespace each run's record names.
type temporalRuns struct {
	log hclog.Logger

	mu      sync.Mutex
	answers map[string]temporalAnswer // by workflow ID
}

type temporalAnswer struct {
	state temporalapi.RunState
	err   error
	at    time.Time
}

func newTemporalRuns(log hclog.Logger) *temporalRuns {
	return &temporalRuns{log: log, answers: map[string]temporalAnswer{}}
}

// Describe asks for the run's state; a question that fails is said on the
// log (the record stays as it is) and returned.
func (t *temporalRuns) Describe(ctx context.Context, run records.TemporalRun) (temporalapi.RunState, error) {
	t.mu.Lock()
	a, ok := t.answers[run.WorkflowID]
	t.mu.Unlock()
	if ok && time.Since(a.at) < temporalAnswerTTL {
		return a.state, a.err
	}
	state, err := t.ask(ctx, "describe", run)
	if err != nil {
		t.log.Warn("could not ask Temporal about a run whose submitting process is gone; its record says running", "workflowId", run.WorkflowID, "error", err)
	}
	t.mu.Lock()
	t.answers[run.WorkflowID] = temporalAnswer{state: state, err: err, at: time.Now()}
	t.mu.Unlock()
	return state, err
}

// Cancel cancels the run's workflow and waits for its end.
func (t *temporalRuns) Cancel(ctx context.Context, run records.TemporalRun) (temporalapi.RunState, error) {
	return t.ask(ctx, "cancel", run)
}

// ask runs stratos-temporal <verb> --json <workflow ID> and decodes its
// answer, or its error envelope.
func (t *temporalRuns) ask(ctx context.Context, verb string, run records.TemporalRun) (temporalapi.RunState, error) {
	var state temporalapi.RunState
	bin, err := sibling.Find("stratos-temporal")
	if err != nil {
		return state, err
	}
	c := exec.CommandContext(ctx, bin, verb, "--json", run.WorkflowID)
	c.Env = append(os.Environ(), "TEMPORAL_ADDRESS="+run.Address, "TEMPORAL_NAMESPACE="+run.Namespace)
	var stdout bytes.Buffer
	c.Stdout = &stdout
	runErr := procgroup.Run(c, procgroup.Options{})
	out, err := boundedread.Reader(ctx, &stdout, maxTemporalAnswer)
	if err != nil {
		return state, clierr.New(temporalapi.CodeRunFailed, "the answer of %s %s about workflow %s: %v", bin, verb, run.WorkflowID, err)
	}
	if runErr != nil {
		var env clierr.Envelope
		if json.Unmarshal(out, &env) == nil && env.Error.Code != "" {
			return state, clierr.New(env.Error.Code, "%s", env.Error.Message).WithDetails(env.Error.Details)
		}
		return state, clierr.New(temporalapi.CodeRunFailed, "%s %s %s: %v", bin, verb, run.WorkflowID, runErr).Wrap(runErr)
	}
	if err := json.Unmarshal(out, &state); err != nil {
		return state, clierr.New(temporalapi.CodeRunFailed, "decode the answer of %s %s about workflow %s: %v", bin, verb, run.WorkflowID, err)
	}
	if state.Status == "" {
		return state, fmt.Errorf("%s %s %s: no status in its answer", bin, verb, run.WorkflowID)
	}
	return state, nil
}
