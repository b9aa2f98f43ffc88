package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/temporal"

	"github.com/stratoscli/stratos/shared/contract/journalapi"
)

func header(id string) journalapi.Entry {
	return journalapi.Entry{V: journalapi.Version, Kind: journalapi.KindHeader,
		Header: &journalapi.Header{ExecutionID: id, Workflow: "steps", BuildKeys: map[string]string{"steps": id}}}
}

func execute(agent int, text string) journalapi.Entry {
	return journalapi.Entry{V: journalapi.Version, Kind: journalapi.KindExecute, Path: "steps", InputSHA256: strings.Repeat("a", 64),
		Execute: &journalapi.Execute{ConfigID: "c", Agent: agent, Call: 1, Text: &text}}
}

// read reads merged as stratos run --replay-journal does: a later entry of
// a place already read is skipped (a problem it does not report).
func read(t *testing.T, merged []journalapi.Entry) *journalapi.Journal {
	t.Helper()
	var buf bytes.Buffer
	for _, e := range merged {
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(append(line, '\n'))
	}
	j, problems, err := journalapi.Read(&buf)
	if err != nil {
		t.Fatalf("read the merged journal: %v", err)
	}
	for _, p := range problems {
		if !strings.Contains(p.Reason, "repeats the entry of an earlier line") {
			t.Errorf("merged journal: %s", p)
		}
	}
	return j
}

// A retried attempt of a run that resumes another replays its own
// journal first: its header (the code it ran), and its own answer where
// both journals have one; a call only the resumed run's journal holds
// (its copy was lost with the attempt before) is answered from that.
func TestMergeJournalsOwnFirstThenTheResumedRuns(t *testing.T) {
	own := []journalapi.Entry{header("own"), execute(1, "own one")}
	resumed := []journalapi.Entry{header("old"), execute(1, "old one"), execute(2, "old two")}
	j := read(t, mergeJournals(own, resumed))
	if j.Header.ExecutionID != "own" {
		t.Errorf("header of %s, want the own journal's", j.Header.ExecutionID)
	}
	var got []string
	for _, e := range j.Entries {
		got = append(got, *e.Execute.Text)
	}
	if strings.Join(got, ", ") != "own one, old two" {
		t.Errorf("replays %q, want the own answer to agent 1 and the resumed run's to agent 2", got)
	}

	// The first attempt of a resuming run has no journal of its own yet.
	if j := read(t, mergeJournals(nil, resumed)); j.Header.ExecutionID != "old" || len(j.Entries) != 2 {
		t.Errorf("first attempt: header %s, %d entries; want the resumed run's journal", j.Header.ExecutionID, len(j.Entries))
	}
	// A retried attempt of a first run replays its own journal alone.
	if j := read(t, mergeJournals(own, nil)); j.Header.ExecutionID != "own" || len(j.Entries) != 1 {
		t.Errorf("retry: header %s, %d entries; want the own journal", j.Header.ExecutionID, len(j.Entries))
	}
}

// Headers without entries, or entries without a header, are nothing to
// replay: the attempt starts afresh.
func TestMergeJournalsWithNothingToReplay(t *testing.T) {
	for name, c := range map[string][2][]journalapi.Entry{
		"none":            {nil, nil},
		"headers alone":   {{header("own")}, {header("old")}},
		"without header":  {{execute(1, "one")}, nil},
		"resumed, header": {nil, {header("old")}},
	} {
		if got := mergeJournals(c[0], c[1]); got != nil {
			t.Errorf("%s: %d entries, want nothing", name, len(got))
		}
	}
}

// Only a cancellation the run's workflow asked for interrupts the code (and
// so its agents); every other end of the activity kills it and leaves the
// executes it asked for to the next attempt.
func TestRunCancelledOnlyWhenTheWorkflowAsked(t *testing.T) {
	for _, c := range []struct {
		name  string
		cause error
		want  bool
	}{
		{"the run was cancelled", temporal.NewCanceledError(), true},
		{"the attempt timed out (its heartbeat answered NotFound)", serviceerror.NewNotFound("invalid activityID or activity already timed out or invoking workflow is completed"), false},
		{"this worker stops", context.Canceled, false},
		{"the activity's own deadline", context.DeadlineExceeded, false},
		{"a heartbeat that kept failing", fmt.Errorf("heartbeat: %w", errors.New("connection refused")), false},
	} {
		if got := runCancelled(c.cause); got != c.want {
			t.Errorf("%s: runCancelled(%v) = %v, want %v", c.name, c.cause, got, c.want)
		}
	}
}
