package runs

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/stratoscli/stratos/stratos-run/records"
)

// PruneOptions says which finished runs Prune removes. A run is removed
// when it passes every criterion that is set; a running run never is.
type PruneOptions struct {
	// OlderThan removes the runs that started longer ago (0: any age).
	OlderThan time.Duration
	// Keep keeps the newest Keep runs, running ones included (negative:
	// no such limit).
	Keep int
	// DryRun only reports what would be removed.
	DryRun bool
}

// Prune removes the record directories of the finished runs opts selects
// (after reconciling, so a run whose process is gone counts as finished)
// and returns them. A record is renamed out of the listing before it is
// deleted, so no reader sees half of it.
func (s *Store) Prune(opts PruneOptions) (removed []Run, problems []error, err error) {
	list, problems, err := s.List(Filter{})
	if err != nil {
		return nil, problems, err
	}
	cutoff := s.now().Add(-opts.OlderThan)
	for i, r := range list {
		if r.Status == records.StatusRunning ||
			(opts.OlderThan > 0 && !r.StartedAt.Before(cutoff)) ||
			(opts.Keep >= 0 && i < opts.Keep) {
			continue
		}
		if !opts.DryRun {
			if err := s.remove(r.ExecutionID); err != nil {
				problems = append(problems, err)
				continue
			}
		}
		removed = append(removed, r)
	}
	return removed, problems, nil
}

// remove renames the run's directory to a hidden name (which listings
// skip), then deletes it.
func (s *Store) remove(id string) error {
	hidden := filepath.Join(s.Dir, ".pruning-"+id)
	if err := os.Rename(filepath.Join(s.Dir, id), hidden); err != nil {
		return fmt.Errorf("prune run %s: %w", id, err)
	}
	if err := os.RemoveAll(hidden); err != nil {
		return fmt.Errorf("prune run %s: remove %s: %w", id, hidden, err)
	}
	return nil
}
