package runs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/procid"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// ScannedMarker, in the live directory (records.LiveDir), records that a
// run start has reconciled every record once (ReconcileAll). From then on a
// run start reconciles only the live entries (ReconcileLive): records
// begun by versions that did not register runs there are reconciled by
// `stratos runs` commands, which read every running record.
const ScannedMarker = ".scanned"

// ReconcileLive does for the runs registered as live (records.LiveDir)
// what ReconcileAll does for every record: a run whose process is gone
// while its status says running is rewritten as crashed, and its ID
// returned. `stratos run` calls it when it starts, so that stale records do
// not wait for someone to list them; it opens nothing but the live
// directory while no run is live, and only the entries of runs that are.
// The first call (no marker yet) reconciles every record once first.
func (s *Store) ReconcileLive() (crashed []string, problems []error, err error) {
	live := filepath.Join(s.Dir, records.LiveDir)
	entries, err := os.ReadDir(live)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("read %s: %w", live, err)
	}
	if !slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == ScannedMarker }) {
		if crashed, problems, err = s.scanOnce(live); err != nil {
			return crashed, problems, err
		}
	}
	for _, e := range entries {
		id := e.Name()
		if strings.HasPrefix(id, ".") { // the marker, a writer's temp file
			continue
		}
		gone, err := s.reconcileLive(id)
		switch {
		case err != nil:
			problems = append(problems, unreadable(id, err))
		case gone:
			crashed = append(crashed, id)
		}
	}
	return crashed, problems, nil
}

// scanOnce reconciles every record, then leaves the marker that says so
// in live.
func (s *Store) scanOnce(live string) (crashed []string, problems []error, err error) {
	if crashed, problems, err = s.ReconcileAll(); err != nil {
		return crashed, problems, err
	}
	if err := os.MkdirAll(live, 0o755); err != nil {
		return crashed, problems, fmt.Errorf("create %s: %w", live, err)
	}
	marker := filepath.Join(live, ScannedMarker)
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		return crashed, problems, fmt.Errorf("write %s: %w", marker, err)
	}
	return crashed, problems, nil
}

// reconcileLive reconciles the live run id: it reports whether it
// rewrote the run's status as crashed, and removes the entry once the
// run's process is gone (whatever its status says by then).
func (s *Store) reconcileLive(id string) (crashed bool, err error) {
	dir := filepath.Join(s.Dir, id)
	inv, err := records.ReadLiveEntry(s.Dir, id)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil // the run ended meanwhile
	}
	if err != nil { // a copy cut short by a crash: the record has the original
		if inv, err = records.ReadInvocation(dir); err != nil {
			return false, err
		}
	}
	if inv.Temporal != nil {
		return false, nil // its submitter may be gone while it runs on: a runs command asks Temporal
	}
	reason, err := processGone(inv)
	if err != nil || reason == "" {
		return false, err
	}
	st, err := records.ReadStatus(dir)
	switch {
	case errors.Is(err, os.ErrNotExist) || (err == nil && st.Status != records.StatusRunning):
		records.Unregister(dir) // no status yet, or a final one: nothing to reconcile
		return false, nil
	case err != nil:
		return false, err
	}
	st, err = records.MarkCrashed(dir, s.now(), reason)
	return err == nil && st.Status == records.StatusCrashed, err
}

// ReconcileAll rewrites every record that says running while its process
// is gone as crashed, and returns the IDs it rewrote. `stratos run` calls
// it once (ReconcileLive), for the records of runs that did not register
// as live. Only running records are opened beyond their status, and runs
// the index holds as finished are not opened at all while their status.json
// is as it was indexed.
func (s *Store) ReconcileAll() (crashed []string, problems []error, err error) {
	d, err := s.openDir()
	if d == nil {
		return nil, nil, err
	}
	defer d.Close()
	ids, err := runIDs(d)
	if err != nil {
		return nil, nil, s.dirUnreadable(err)
	}
	idx := s.readIndex()
	for _, id := range ids {
		if e, ok := idx[id]; ok && e.vouches(d, id) {
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
	if inv.Temporal != nil {
		return s.reconcileTemporal(dir, st, inv)
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
