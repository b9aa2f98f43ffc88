package runs

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// fakeTemporal answers every question with state or err.
type fakeTemporal struct {
	state temporalapi.RunState
	err   error
	asked int
}

func (f *fakeTemporal) Describe(context.Context, records.TemporalRun) (temporalapi.RunState, error) {
	f.asked++
	return f.state, f.err
}

func (f *fakeTemporal) Cancel(ctx context.Context, r records.TemporalRun) (temporalapi.RunState, error) {
	return f.Describe(ctx, r)
}

// beginTemporal begins the record of a Temporal run whose submitter is
// gone (no pid).
func beginTemporal(t *testing.T, dir string) string {
	t.Helper()
	id := "20261207T000000Z-0a0b0c0d"
	_, err := records.Begin(dir, records.Invocation{ExecutionID: id, Workflow: "hello", StartedAt: time.Now().UTC(),
		Temporal: &records.TemporalRun{WorkflowID: "stratos-" + id, Address: "127.0.0.1:1", Namespace: "default", TaskQueue: "stratos"}})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A Temporal run whose submitter is gone is never reconciled as crashed:
// it stays running while Temporal says so or does not answer, and gets
// the end Temporal reports.
func TestTemporalRunAsksTemporal(t *testing.T) {
	dir := t.TempDir()
	id := beginTemporal(t, dir)
	if _, _, err := (&Store{Dir: dir}).ReconcileAll(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []*fakeTemporal{nil, {err: errors.New("no answer")}, {state: temporalapi.RunState{Status: temporalapi.StateRunning}}} {
		s := &Store{Dir: dir}
		if f != nil {
			s.Temporal = f
		}
		r, err := s.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != records.StatusRunning || r.Engine != records.EngineTemporal {
			t.Errorf("with %+v: %s (engine %q), want running (temporal)", f, r.Status, r.Engine)
		}
	}
	code := 0
	f := &fakeTemporal{state: temporalapi.RunState{Status: records.StatusSucceeded, ExitCode: &code,
		Output: json.RawMessage(`{"text":"hi"}`), Events: []json.RawMessage{json.RawMessage(`{"type":"x"}`)}}}
	s := &Store{Dir: dir, Temporal: f}
	r, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != records.StatusSucceeded || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Errorf("ended on Temporal: %+v, want succeeded (0)", r)
	}
	out, err := os.ReadFile(filepath.Join(dir, id, records.OutputFile))
	if err != nil || !json.Valid(out) {
		t.Errorf("output.json: %q, %v", out, err)
	}
	if _, err := s.Load(id); err != nil || f.asked != 1 {
		t.Errorf("a finished record asks again: %d questions, %v", f.asked, err)
	}
}

// A worker's attempt at a run's code (a record with AttemptOf) is listed
// only when the run it is an attempt at is not: where one home both
// submitted the run and ran its code, the run is listed once, as its
// submitter's record, also once the attempt is indexed; elsewhere the
// attempt is the run's only record here and is listed, naming it.
func TestAnAttemptIsListedOnlyWithoutItsRun(t *testing.T) {
	dir := t.TempDir()
	attempt := "20261207T000001Z-1a2b3c4d"
	rec, err := records.Begin(dir, records.Invocation{ExecutionID: attempt, Workflow: "hello", StartedAt: time.Now().UTC(),
		AttemptOf: "stratos-20261207T000000Z-0a0b0c0d"})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Finish(records.Final{Status: records.StatusSucceeded, EndedAt: time.Now().UTC(), Output: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	alone := listRuns(t, &Store{Dir: dir})
	if len(alone.runs) != 1 || alone.runs[0].AttemptOf != "stratos-20261207T000000Z-0a0b0c0d" {
		t.Fatalf("the attempt alone lists %+v, want it, naming its run", alone.runs)
	}
	submitted := beginTemporal(t, dir)
	for range 2 { // the second listing reads the attempt from the index
		got := listRuns(t, &Store{Dir: dir})
		if len(got.runs) != 1 || got.runs[0].ExecutionID != submitted {
			t.Fatalf("listed %+v, want only the submitted run %s", got.runs, submitted)
		}
	}
}

// runs resume of a run on the Temporal engine whose submitter is gone
// takes the status its workflow reports: one Temporal says still runs, or
// succeeded, is refused as a local one is; a failed one is a resume point
// without a journal here (its workflow keeps it) that carries what its
// usage events add up to.
func TestTemporalResumePointTakesTheWorkflowsStatus(t *testing.T) {
	one := 1
	for _, c := range []struct {
		state  temporalapi.RunState
		refuse string
	}{
		{temporalapi.RunState{Status: temporalapi.StateRunning}, "still running"},
		{temporalapi.RunState{Status: records.StatusSucceeded, ExitCode: new(int)}, "succeeded"},
		{temporalapi.RunState{Status: records.StatusFailed, ExitCode: &one}, ""},
	} {
		dir := t.TempDir()
		id := beginTemporal(t, dir)
		usage := `{"type":"usage","agentId":"top/a","executionId":"top","details":{"inputTokens":10,"outputTokens":5,"costUsd":0.5}}` + "\n"
		if err := os.WriteFile(filepath.Join(dir, id, EventsFile), []byte(usage), 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := (&Store{Dir: dir, Temporal: &fakeTemporal{state: c.state}}).ResumePoint(id)
		if c.refuse != "" {
			var ce *clierr.Error
			if !errors.As(err, &ce) || ce.Code != runapi.CodeResumeNotResumable || !strings.Contains(ce.Message, c.refuse) || ce.Exit != 2 {
				t.Errorf("Temporal says %s: %v, want resume_not_resumable (%q, exit 2)", c.state.Status, err, c.refuse)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Temporal says failed: %v", err)
		}
		if p.Journal != nil || p.Invocation.Temporal == nil || p.Invocation.Temporal.WorkflowID != "stratos-"+id {
			t.Errorf("point %+v: want no journal and the run's workflow", p)
		}
		if s := p.ChainSpent(); s.Tokens != 15 || s.USD != 0.5 {
			t.Errorf("chain spent %+v, want 15 tokens and $0.5", s)
		}
	}
}
