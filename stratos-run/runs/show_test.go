package runs

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// A chain: a failed run, resumed twice (one resumed execution failed, the
// other still runs), beside a run of its own.
const (
	chainFirst   = "20261202T140000Z-aaaa0001"
	chainFailed  = "20261202T150000Z-bbbb0002"
	chainRunning = "20261202T160000Z-cccc0003"
	chainOther   = "20261202T170000Z-dddd0004"
)

func resumeChain(t *testing.T) (*Store, *journalapi.Report) {
	t.Helper()
	s := newStore(t)
	finished(t, s, chainFirst, records.StatusFailed, 1, t0.Add(-3*time.Hour))
	report := &journalapi.Report{From: chainFirst, ReplayedCalls: 3, ChangedWorkflows: []string{"w"},
		Divergences: []journalapi.Divergence{{Path: "w/child#1", Call: `agent "writer" (object 1) call 2`, Reason: "its input differs from the journal's"}}}
	start := t0.Add(-2 * time.Hour)
	r, err := records.Begin(s.Dir, records.Invocation{ExecutionID: chainFailed, Workflow: "w", PID: 4000000, StartedAt: start, ResumedFrom: chainFirst})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(records.Final{Status: records.StatusFailed, ExitCode: 1, EndedAt: start.Add(time.Second), Error: map[string]any{"code": "x"}, Resume: report}); err != nil {
		t.Fatal(err)
	}
	if _, err := records.Begin(s.Dir, records.Invocation{ExecutionID: chainRunning, Workflow: "w", PID: os.Getpid(), StartedAt: t0.Add(-time.Hour), ResumedFrom: chainFirst}); err != nil {
		t.Fatal(err)
	}
	finished(t, s, chainOther, records.StatusSucceeded, 0, t0)
	settle(t, s)
	return s, report
}

func TestShowFollowsTheResumeChain(t *testing.T) {
	s, report := resumeChain(t)
	// Twice: the second time, the listing behind resumedBy is the index's.
	for range 2 {
		first, err := s.Show(chainFirst)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{chainFailed, chainRunning}; !reflect.DeepEqual(first.ResumedBy, want) || first.ResumedFrom != "" || first.Resume != nil {
			t.Errorf("the first run is resumed by %v (resumes %q, report %+v), want %v", first.ResumedBy, first.ResumedFrom, first.Resume, want)
		}
		failed, err := s.Show(chainFailed)
		if err != nil {
			t.Fatal(err)
		}
		if failed.ResumedFrom != chainFirst || !reflect.DeepEqual(failed.Resume, report) || failed.ResumedBy != nil {
			t.Errorf("the resumed run resumes %q with the report %+v, resumed by %v; want %s and %+v", failed.ResumedFrom, failed.Resume, failed.ResumedBy, chainFirst, report)
		}
		running, err := s.Show(chainRunning)
		if err != nil || running.ResumedFrom != chainFirst || running.Resume != nil {
			t.Errorf("the running resumed run: %+v, %v", running, err)
		}
		other, err := s.Show(chainOther)
		if err != nil || other.ResumedFrom != "" || other.ResumedBy != nil {
			t.Errorf("the run of its own: %+v, %v", other, err)
		}
	}
}

// List shows the run each run resumes, from the records and from the index
// alike; show's JSON has the report and the runs that resume it.
func TestListAndShowCarryResumedFrom(t *testing.T) {
	s, _ := resumeChain(t)
	for range 2 {
		list, problems, err := s.List(Filter{})
		if err != nil || len(problems) > 0 {
			t.Fatal(err, problems)
		}
		got := map[string]string{}
		for _, r := range list {
			got[r.ExecutionID] = r.ResumedFrom
		}
		want := map[string]string{chainFirst: "", chainFailed: chainFirst, chainRunning: chainFirst, chainOther: ""}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("listed resumedFrom %v, want %v", got, want)
		}
	}
	if len(s.readIndex()) != 3 {
		t.Fatalf("the index holds %d runs, want the 3 finished", len(s.readIndex()))
	}
	d, err := s.Show(chainFailed)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ResumedFrom string `json:"resumedFrom"`
		Resume      struct {
			From        string `json:"from"`
			Divergences []struct {
				Path string `json:"path"`
			} `json:"divergences"`
		} `json:"resume"`
	}
	if err := json.Unmarshal(mustJSON(t, d), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.ResumedFrom != chainFirst || doc.Resume.From != chainFirst || len(doc.Resume.Divergences) != 1 || doc.Resume.Divergences[0].Path != "w/child#1" {
		t.Errorf("show's JSON: %+v", doc)
	}
}
