// Package runs reads the run records under ~/.stratos/runs for people:
// listing, finding a run by an ID prefix, showing one, following its events
// and stopping it. Every read reconciles first: a record that says running
// while its process is gone is rewritten as crashed, so no command reports a
// dead run as live.
package runs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// Store is a runs directory.
type Store struct {
	Dir string
	// Now is the clock reconciliation stamps; time.Now when nil.
	Now func() time.Time
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
	Dir         string                  `json:"dir"`
}

// List returns the runs that pass f, newest first. Records that cannot be
// read are skipped and returned as problems; a record still being created
// (no status yet) is skipped silently. Finished runs come from the index
// when it has them; List rewrites the index when it was missing runs or
// held runs that are gone, and a failure to write it is only a problem.
func (s *Store) List(f Filter) ([]Run, []error, error) {
	all, problems, err := s.all()
	if err != nil {
		return nil, problems, err
	}
	out := all[:0:0]
	for _, r := range all {
		if f.keep(r) {
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
	ids, err := s.ids()
	if err != nil {
		return nil, nil, err
	}
	idx := s.readIndex()
	out := make([]Run, 0, len(ids))
	var problems []error
	stale := false // a finished run is missing from the index
	for _, id := range ids {
		if r, ok := s.cached(idx, id); ok {
			out = append(out, r)
			delete(idx, id)
			continue
		}
		r, err := s.Load(id)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			problems = append(problems, err)
			continue
		}
		out = append(out, r)
		stale = stale || r.Status != records.StatusRunning
	}
	sortNewestFirst(out)
	// What is left in idx are runs whose directories are gone (pruned).
	if stale || len(idx) > 0 {
		if err := s.writeIndex(out); err != nil {
			problems = append(problems, fmt.Errorf("write the runs index (a cache; listing still works): %w", err))
		}
	}
	return out, problems, nil
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
	dir := filepath.Join(s.Dir, id)
	st, err := records.ReadStatus(dir)
	if err != nil {
		return Run{}, unreadable(id, err)
	}
	inv, err := records.ReadInvocation(dir)
	if err != nil {
		return Run{}, unreadable(id, err)
	}
	if st, err = s.reconcile(dir, st, inv); err != nil {
		return Run{}, unreadable(id, err)
	}
	return s.summary(dir, st, inv), nil
}

func (s *Store) summary(dir string, st records.Status, inv records.Invocation) Run {
	end := s.now()
	if st.EndedAt != nil {
		end = *st.EndedAt
	} else if st.Reconciled != nil {
		end = st.Reconciled.At
	}
	return Run{
		ExecutionID: st.ExecutionID, Workflow: st.Workflow, Status: st.Status,
		StartedAt: st.StartedAt, EndedAt: st.EndedAt, DurationMs: end.Sub(st.StartedAt).Milliseconds(),
		PID: inv.PID, ExitCode: st.ExitCode, Reconciled: st.Reconciled, Dir: dir,
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
		return "", clierr.Usage(runapi.CodeRunAmbiguous, "run %q is ambiguous: %s", ref, strings.Join(matches, ", ")).
			WithDetails(map[string]any{"ref": ref, "candidates": matches})
	}
}

// ids lists the run directories, sorted. A missing runs directory holds no
// runs.
func (s *Store) ids() ([]string, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, clierr.New(runapi.CodeRunsUnreadable, "read the runs directory: %v", err).Wrap(err).
			WithDetails(map[string]any{"path": s.Dir})
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

// unreadable wraps a record read error for the CLI.
func unreadable(id string, err error) error {
	return clierr.New(runapi.CodeRunsUnreadable, "run %s: %v", id, err).Wrap(err).
		WithDetails(map[string]any{"executionId": id})
}
