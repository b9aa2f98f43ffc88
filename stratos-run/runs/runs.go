// Package runs reads the run records under ~/.stratos/runs for people:
// listing, finding a run by an ID prefix, showing one, following its events
// and stopping it. Every read reconciles first: a record that says running
// while its process is gone is rewritten as crashed, so no command reports a
// dead run as live.
package runs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// Store is a runs directory.
type Store struct {
	Dir string
	// Now is the clock reconciliation stamps; time.Now when nil.
	Now func() time.Time
	// Temporal answers for runs on the Temporal engine whose submitting
	// process is gone; nil leaves them as their record says.
	Temporal TemporalRuns
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Run is one run as listed: its status (reconciled) and its process.
type Run struct {
	ExecutionID string                  `json:"executionId"`
	Workflow    string                  `json:"workflow"`
	Status      string                  `json:"status"`
	StartedAt   time.Time               `json:"startedAt"`
	EndedAt     *time.Time              `json:"endedAt,omitempty"`
	DurationMs  int64                   `json:"durationMs"`
	PID         int                     `json:"pid"`
	ExitCode    *int                    `json:"exitCode,omitempty"`
	Reconciled  *records.Reconciliation `json:"reconciled,omitempty"`
	// ResumedFrom is the execution this run resumes (stratos runs resume).
	ResumedFrom string `json:"resumedFrom,omitempty"`
	// AttemptOf is the Temporal workflow whose code a stratos worker ran
	// in this run. List leaves such a run out when it lists the run it is
	// an attempt at (a home that both submitted the run and ran its code).
	AttemptOf string `json:"attemptOf,omitempty"`
	Dir       string `json:"dir"`
	// Engine is "temporal" for a run on the Temporal engine, whose status
	// comes from its Temporal workflow once the process that submitted it
	// is gone; empty for a local run. (Such runs are never indexed: the
	// index has no place for it.)
	Engine string `json:"engine,omitempty"`
	// temporalWorkflow is the Temporal workflow of a run on that engine
	// (such runs are never indexed, so it needs no place there).
	temporalWorkflow string
}

// List returns the runs that pass f, newest first. Records that cannot be
// read are skipped and returned as problems; a record still being created
// (no status yet while its process runs) is skipped silently. Finished runs
// come from the index while their status.json is as it was indexed; List
// rewrites the index when it was missing runs, held runs that changed or
// are gone, and a failure to write it is only a problem.
func (s *Store) List(f Filter) ([]Run, []error, error) {
	all, problems, err := s.all()
	if err != nil {
		return nil, problems, err
	}
	out := all[:0:0]
	submitted := submittedHere(all)
	for _, r := range all {
		if f.keep(r) && !submitted[r.AttemptOf] {
			out = append(out, r)
		}
	}
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out, problems, nil
}

// all returns every readable run, newest first, through the index.
func (s *Store) all() ([]Run, []error, error) {
	d, err := s.openDir()
	if d == nil {
		return nil, nil, err
	}
	defer d.Close()
	ids, err := runIDs(d)
	if err != nil {
		return nil, nil, s.dirUnreadable(err)
	}
	l := s.newListing(d)
	l.statIndexed(ids)
	l.runs = make([]Run, 0, len(ids))
	for i, id := range ids {
		l.add(id, l.stats[i])
	}
	l.vouchRecent()
	l.finish()
	return l.runs, l.problems, nil
}

// openDir opens the runs directory; nil and no error when there is none
// (no runs yet).
func (s *Store) openDir() (*filestat.Dir, error) {
	d, err := filestat.OpenDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, s.dirUnreadable(err)
	}
	return d, nil
}

func sortNewestFirst(list []Run) {
	sort.SliceStable(list, func(i, j int) bool {
		if !list[i].StartedAt.Equal(list[j].StartedAt) {
			return list[i].StartedAt.After(list[j].StartedAt)
		}
		return list[i].ExecutionID > list[j].ExecutionID
	})
}

// Load reads the run id, reconciling it first.
func (s *Store) Load(id string) (Run, error) {
	r, _, err := s.load(id)
	return r, err
}

// load is Load, which also returns the stat data of the status.json the
// run was read from; they are zero when reconciliation rewrote it.
func (s *Store) load(id string) (Run, filestat.Stat, error) {
	dir := filepath.Join(s.Dir, id)
	st, stat, err := records.ReadStatusStat(dir)
	if err != nil {
		return Run{}, stat, unreadable(id, missingStatus(err))
	}
	inv, err := records.ReadInvocation(dir)
	if err != nil {
		return Run{}, stat, unreadable(id, err)
	}
	if st.Status == records.StatusRunning {
		if st, err = s.reconcile(dir, st, inv); err != nil {
			return Run{}, stat, unreadable(id, err)
		}
		if st.Status != records.StatusRunning {
			stat = filestat.Stat{}
		}
	}
	return s.summary(dir, st, inv), stat, nil
}

// missingStatus says plainly that status.json is missing.
func missingStatus(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s is missing: %w", records.StatusFile, err)
	}
	return err
}

// summary is the run as listed. A run's duration ends when it ended; a
// crashed run's, at the end inferred from its record or, in records
// reconciled before ends were inferred, when the crash was noticed.
func (s *Store) summary(dir string, st records.Status, inv records.Invocation) Run {
	end := s.now()
	switch rec := st.Reconciled; {
	case st.EndedAt != nil:
		end = *st.EndedAt
	case rec != nil && rec.InferredEnd != nil:
		end = *rec.InferredEnd
	case rec != nil:
		end = rec.At
	}
	return Run{
		ExecutionID: st.ExecutionID, Workflow: st.Workflow, Status: st.Status,
		StartedAt: st.StartedAt, EndedAt: st.EndedAt, DurationMs: end.Sub(st.StartedAt).Milliseconds(),
		PID: inv.PID, ExitCode: st.ExitCode, Reconciled: st.Reconciled, ResumedFrom: st.ResumedFrom, AttemptOf: st.AttemptOf, Dir: dir,
		Engine: engineOf(inv), temporalWorkflow: temporalWorkflow(inv),
	}
}

// Resolve returns the ID of the one run whose ID is ref or starts with ref.
// No match or several are usage errors (exit 2) that name the candidates.
func (s *Store) Resolve(ref string) (string, error) {
	ids, err := s.ids()
	if err != nil {
		return "", err
	}
	var matches []string
	for _, id := range ids {
		if id == ref {
			return id, nil
		}
		if ref != "" && strings.HasPrefix(id, ref) {
			matches = append(matches, id)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		return "", clierr.Usage(runapi.CodeRunNotFound, "no run %q in %s", ref, s.Dir).
			WithDetails(map[string]any{"ref": ref, "candidates": []string{}})
	default:
		return "", ambiguous(ref, matches)
	}
}

// maxCandidates bounds the runs an ambiguous prefix names: a short prefix
// ("2026") may match thousands, and a message listing them all says
// nothing more than the count.
const maxCandidates = 10

// ambiguous is the error of a prefix that matches several runs (sorted
// IDs): it names the newest maxCandidates of them and says how many there
// are (details.matches).
func ambiguous(ref string, matches []string) error {
	shown := matches[max(len(matches)-maxCandidates, 0):]
	list := strings.Join(shown, ", ")
	if len(shown) < len(matches) {
		list = fmt.Sprintf("%d runs start with it, the newest %d: %s", len(matches), len(shown), list)
	}
	return clierr.Usage(runapi.CodeRunAmbiguous, "run %q is ambiguous: %s; give more of the execution ID", ref, list).
		WithDetails(map[string]any{"ref": ref, "matches": len(matches), "candidates": shown})
}

// ids lists the run directories, sorted. A missing runs directory holds no
// runs.
func (s *Store) ids() ([]string, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, s.dirUnreadable(err)
	}
	ids := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			ids = append(ids, e.Name())
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// dirUnreadable wraps an error reading the runs directory for the CLI.
func (s *Store) dirUnreadable(err error) error {
	return clierr.New(runapi.CodeRunsUnreadable, "read the runs directory: %v", err).Wrap(err).
		WithDetails(map[string]any{"path": s.Dir})
}

// unreadable wraps a record read error for the CLI.
func unreadable(id string, err error) error {
	return clierr.New(runapi.CodeRunsUnreadable, "run %s: %v", id, err).Wrap(err).
		WithDetails(map[string]any{"executionId": id})
}
