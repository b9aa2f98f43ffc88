package runs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// finished writes a run record that ended with status and exit code.
func finished(t *testing.T, s *Store, id, status string, exit int, start time.Time) {
	t.Helper()
	r := begin(t, s, id, "w", 4000000, start)
	f := records.Final{Status: status, ExitCode: exit, EndedAt: start.Add(time.Second)}
	if status == records.StatusSucceeded {
		f.Output = json.RawMessage(`{"ok":true}`)
	} else {
		f.Error = map[string]any{"code": "workflow_failed", "message": "it broke", "details": map[string]any{"step": 2}}
	}
	if err := r.Finish(f); err != nil {
		t.Fatal(err)
	}
}

func ids(list []Run) []string {
	out := []string{}
	for _, r := range list {
		out = append(out, r.ExecutionID)
	}
	return out
}

// fourRuns: three finished an hour apart before t0, and one live run.
func fourRuns(t *testing.T) *Store {
	s := newStore(t)
	finished(t, s, "20261202T140000Z-aaaa0001", records.StatusSucceeded, 0, t0.Add(-3*time.Hour))
	finished(t, s, "20261202T150000Z-bbbb0002", records.StatusFailed, 1, t0.Add(-2*time.Hour))
	finished(t, s, "20261202T160000Z-cccc0003", records.StatusCancelled, 130, t0.Add(-time.Hour))
	begin(t, s, "20261202T170000Z-dddd0004", "w", os.Getpid(), t0)
	settle(t, s)
	return s
}

func TestPruneKeepsTheNewestAndNeverARunningRun(t *testing.T) {
	s := fourRuns(t)
	removed, problems, err := s.Prune(PruneOptions{Keep: 0})
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	want := []string{"20261202T160000Z-cccc0003", "20261202T150000Z-bbbb0002", "20261202T140000Z-aaaa0001"}
	if !reflect.DeepEqual(ids(removed), want) {
		t.Errorf("removed %v, want every finished run %v", ids(removed), want)
	}
	left, _, _ := s.List(Filter{})
	if !reflect.DeepEqual(ids(left), []string{"20261202T170000Z-dddd0004"}) {
		t.Errorf("left %v, want the running run only", ids(left))
	}
	if leftovers, _ := filepath.Glob(filepath.Join(s.Dir, ".pruning-*")); len(leftovers) > 0 {
		t.Errorf("pruning left %v", leftovers)
	}
}

func TestPruneNeedsEveryCriterion(t *testing.T) {
	s := fourRuns(t)
	// The store's now is t0+1h: older than 150 minutes are aaaa and bbbb,
	// but keeping the newest 3 keeps bbbb.
	removed, _, err := s.Prune(PruneOptions{Keep: 3, OlderThan: 150 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"20261202T140000Z-aaaa0001"}; !reflect.DeepEqual(ids(removed), want) {
		t.Errorf("removed %v, want %v", ids(removed), want)
	}
	s = fourRuns(t)
	removed, _, _ = s.Prune(PruneOptions{Keep: -1, OlderThan: 150 * time.Minute, DryRun: true})
	if want := []string{"20261202T150000Z-bbbb0002", "20261202T140000Z-aaaa0001"}; !reflect.DeepEqual(ids(removed), want) {
		t.Errorf("dry run would remove %v, want %v", ids(removed), want)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "20261202T140000Z-aaaa0001")); err != nil {
		t.Errorf("a dry run removed a record: %v", err)
	}
}

func TestListLimitAndSince(t *testing.T) {
	s := fourRuns(t)
	list, _, _ := s.List(Filter{Limit: 2})
	if want := []string{"20261202T170000Z-dddd0004", "20261202T160000Z-cccc0003"}; !reflect.DeepEqual(ids(list), want) {
		t.Errorf("--limit 2: %v, want %v", ids(list), want)
	}
	list, _, _ = s.List(Filter{Since: t0.Add(-2 * time.Hour), Status: records.StatusFailed})
	if want := []string{"20261202T150000Z-bbbb0002"}; !reflect.DeepEqual(ids(list), want) {
		t.Errorf("--since (inclusive) --status failed: %v, want %v", ids(list), want)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"90m":                  now.Add(-90 * time.Minute),
		"7d":                   now.Add(-7 * 24 * time.Hour),
		"2026-12-01T08:00:00Z": time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC),
		"2026-12-01":           time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
	} {
		got, err := ParseSince(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "yesterday", "-2h", "d"} {
		if _, err := ParseSince(bad, now); err == nil {
			t.Errorf("ParseSince(%q) succeeded", bad)
		}
	}
}

func TestResultEndsAsTheRunDid(t *testing.T) {
	s := fourRuns(t)
	out, err := s.Result("20261202T140000Z-aaaa0001")
	if err != nil || string(out) != "{\n  \"ok\": true\n}\n" {
		t.Errorf("succeeded: %q, %v", out, err)
	}
	for id, want := range map[string]struct {
		code string
		exit int
	}{
		"20261202T150000Z-bbbb0002": {"workflow_failed", 1},
		"20261202T160000Z-cccc0003": {records.StatusCancelled, 130},
		"20261202T170000Z-dddd0004": {runapi.CodeRunNotFinished, 1},
	} {
		_, err := s.Result(id)
		ce := clierr.As(err)
		if ce.Code != want.code || ce.Exit != want.exit || ce.Details["executionId"] != id {
			t.Errorf("%s: %s exit %d %v; want %s exit %d", id, ce.Code, ce.Exit, ce.Details, want.code, want.exit)
		}
	}
	_, err = s.Result("20261202T150000Z-bbbb0002")
	if d := clierr.As(err).Details; d["step"] != float64(2) || clierr.As(err).Message != "it broke" {
		t.Errorf("the failed run's error lost its message or details: %v", err)
	}
}
