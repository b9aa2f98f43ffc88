// Package runs reads the run records under ~/.stratos/runs for people:
// listing, finding a run by an ID prefix, showing one, following its events
// and stopping it. Every read reconciles first: a record that says running
// while its process is gone is rewritten as crashed, so no command reports a
// dead run as live.
package runs

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// Error codes of this package.
const (
	CodeRunNotFound  = "run_not_found"
	CodeRunAmbiguous = "run_ambiguous"
	CodeRunsUnread   = "runs_unreadable"
	CodeNotRunning   = "run_not_running"
	CodeNotOurs      = "run_process_unconfirmed"
	CodeStopTimeout  = "stop_timeout"
	CodeStopFailed   = "stop_failed"
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
// (no status yet) is skipped silently.
func (s *Store) List(f Filter) ([]Run, []error, error) {
	ids, err := s.ids()
	if err != nil {
		return nil, nil, err
	}
	var out []Run
	var problems []error
	for _, id := range ids {
		r, err := s.Load(id)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			problems = append(problems, err)
			continue
		}
		if f.keep(r) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].StartedAt.Equal(out[j].StartedAt) {
			return out[i].StartedAt.After(out[j].StartedAt)
		}
		return out[i].ExecutionID > out[j].ExecutionID
	})
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out, problems, nil
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
		return "", clierr.Usage(CodeRunNotFound, "no run %q in %s", ref, s.Dir).
			WithDetails(map[string]any{"ref": ref, "candidates": []string{}})
	default:
		return "", clierr.Usage(CodeRunAmbiguous, "run %q is ambiguous: %s", ref, strings.Join(matches, ", ")).
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
		return nil, clierr.New(CodeRunsUnread, "read the runs directory: %v", err).Wrap(err).
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
	return clierr.New(CodeRunsUnread, "run %s: %v", id, err).Wrap(err).
		WithDetails(map[string]any{"executionId": id})
}
