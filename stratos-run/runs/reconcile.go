package runs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/procid"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// ReconcileAll rewrites every record that says running while its process
// is gone as crashed, and returns the IDs it rewrote. `stratos run` calls it
// when it starts, so that stale records do not wait for someone to list them.
// Only running records are opened beyond their status, and runs the index
// holds (finished ones) are not opened at all.
func (s *Store) ReconcileAll() (crashed []string, problems []error, err error) {
	ids, err := s.ids()
	if err != nil {
		return nil, nil, err
	}
	idx := s.readIndex()
	for _, id := range ids {
		if _, finished := s.cached(idx, id); finished {
			continue
		}
		dir := filepath.Join(s.Dir, id)
		st, err := records.ReadStatus(dir)
		if errors.Is(err, os.ErrNotExist) || (err == nil && st.Status != records.StatusRunning) {
			continue
		}
		var inv records.Invocation
		if err == nil {
			inv, err = records.ReadInvocation(dir)
		}
		if err == nil {
			st, err = s.reconcile(dir, st, inv)
		}
		switch {
		case err != nil:
			problems = append(problems, unreadable(id, err))
		case st.Status == records.StatusCrashed:
			crashed = append(crashed, id)
		}
	}
	return crashed, problems, nil
}

// reconcile returns st, or the crashed status it wrote when st says running
// and the run's process is gone.
func (s *Store) reconcile(dir string, st records.Status, inv records.Invocation) (records.Status, error) {
	if st.Status != records.StatusRunning {
		return st, nil
	}
	reason, err := processGone(inv)
	if err != nil || reason == "" {
		return st, err
	}
	// MarkCrashed reads the status again: a run that finished between the
	// read above and its exit has written its own final status, and keeps it.
	return records.MarkCrashed(dir, s.now(), reason)
}

// processGone says why the run's process is gone, or "" when it still runs
// or cannot be told apart from a live run (a record without a pid, or
// without a start time while its pid is in use).
func processGone(inv records.Invocation) (string, error) {
	if inv.PID <= 0 {
		return "", nil
	}
	cur, err := procid.Of(inv.PID)
	if errors.Is(err, procid.ErrNoProcess) {
		return fmt.Sprintf("process %d exited without writing a final status", inv.PID), nil
	}
	if err != nil {
		return "", fmt.Errorf("check process %d: %w", inv.PID, err)
	}
	if inv.ProcessStart != 0 && cur.StartTime != inv.ProcessStart {
		return fmt.Sprintf("process %d exited without writing a final status (the pid now belongs to another process)", inv.PID), nil
	}
	return "", nil
}

// ownProcess reports whether the run's process still runs and is really the
// run's: same pid and same start time.
func ownProcess(inv records.Invocation) (bool, error) {
	if inv.PID <= 0 || inv.ProcessStart == 0 {
		return false, nil
	}
	return procid.Alive(procid.Identity{PID: inv.PID, StartTime: inv.ProcessStart})
}
