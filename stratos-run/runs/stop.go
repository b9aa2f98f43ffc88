package runs

import (
	"context"
	"path/filepath"
	"syscall"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// DefaultStopWait bounds how long Stop waits for a run to finish after
// SIGTERM: longer than the run's own cancellation grace (after which it
// kills its runtime and records the run as interrupted).
const DefaultStopWait = 30 * time.Second

// StopOptions says how to stop a run.
type StopOptions struct {
	Wait time.Duration // DefaultStopWait if 0
	Poll time.Duration // DefaultPollInterval if 0
}

// Stop sends SIGTERM to the run's process, as Ctrl-C would cancel it, and
// waits for the process to end; it returns the run as it ended. The signal is
// sent only when the process is still the run's own (same pid and start
// time); a run that is not running is an error (exit 1).
func (s *Store) Stop(ctx context.Context, id string, opts StopOptions) (Run, error) {
	if opts.Wait == 0 {
		opts.Wait = DefaultStopWait
	}
	if opts.Poll == 0 {
		opts.Poll = DefaultPollInterval
	}
	r, err := s.Load(id)
	if err != nil {
		return Run{}, err
	}
	if r.Status != records.StatusRunning {
		return r, clierr.New(runapi.CodeRunNotRunning, "run %s is not running (it is %s)", id, r.Status).
			WithDetails(map[string]any{"executionId": id, "status": r.Status})
	}
	inv, err := records.ReadInvocation(filepath.Join(s.Dir, id))
	if err != nil {
		return r, unreadable(id, err)
	}
	ours, err := ownProcess(inv)
	if err == nil && !ours && inv.Temporal != nil {
		return s.stopTemporal(ctx, id, inv)
	}
	if err != nil || !ours {
		return r, clierr.New(runapi.CodeRunProcessUnconfirmed, "run %s: cannot confirm that process %d is this run's, so it was not signalled", id, inv.PID).
			WithDetails(map[string]any{"executionId": id, "pid": inv.PID})
	}
	if err := syscall.Kill(inv.PID, syscall.SIGTERM); err != nil {
		return r, clierr.New(runapi.CodeStopFailed, "signal run %s (process %d): %v", id, inv.PID, err).Wrap(err).
			WithDetails(map[string]any{"executionId": id, "pid": inv.PID})
	}
	return s.awaitEnd(ctx, id, inv, opts)
}

// awaitEnd waits until the run's process is gone, then reads how it ended
// (a process that died without a final status is reconciled as crashed).
func (s *Store) awaitEnd(ctx context.Context, id string, inv records.Invocation, opts StopOptions) (Run, error) {
	deadline := time.NewTimer(opts.Wait)
	defer deadline.Stop()
	for {
		alive, err := ownProcess(inv)
		if err == nil && !alive {
			return s.Load(id)
		}
		select {
		case <-ctx.Done():
			return Run{}, ctx.Err()
		case <-deadline.C:
			return Run{}, clierr.New(runapi.CodeStopTimeout, "run %s (process %d) did not end within %s after SIGTERM", id, inv.PID, opts.Wait).
				WithDetails(map[string]any{"executionId": id, "pid": inv.PID})
		case <-time.After(opts.Poll):
		}
	}
}
