package registry

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
)

// DefaultLockTimeout is the longest an operation waits for a bookkeeping lock.
const DefaultLockTimeout = 5 * time.Second

// lockRetry is how often a waiting operation tries the lock again.
const lockRetry = 5 * time.Millisecond

// Locks hands out the per-worktree bookkeeping locks of one operation. It
// enforces the safeguards of docs/design/worktrees.md: at most one lock held
// at a time, never re-acquired by the same operation, released on every path,
// and waiting at most Timeout. Create one Locks per operation.
type Locks struct {
	Dir     string
	Timeout time.Duration
	held    string
}

// LockTimeoutError reports that another process held a lock for longer than
// the operation may wait. The lock is never stolen or broken.
type LockTimeoutError struct {
	Name   string
	Path   string
	Waited time.Duration
}

func (e *LockTimeoutError) Error() string {
	return fmt.Sprintf("timed out after %s waiting for the bookkeeping lock of worktree %q (%s): another Stratos process holds it", e.Waited, e.Name, e.Path)
}

// ErrLockNesting is returned when an operation asks for a lock while holding
// one: a programming error the safeguards forbid.
var ErrLockNesting = errors.New("bookkeeping lock requested while another is held")

// PhaseLock is the phase an operation stopped by SIGINT or SIGTERM while
// waiting for a bookkeeping lock names (details.phase).
const PhaseLock = "waiting for the worktree lock"

// interrupted is the error of an operation whose context was cancelled
// while it waited for name's lock: it held nothing and changed nothing.
func interrupted(ctx context.Context, name, path string) *clierr.Error {
	ce := clierr.New(errcode.CodeInterrupted, "interrupted while %s of %q (%s)", PhaseLock, name, path).
		WithDetails(map[string]any{"phase": PhaseLock, "name": name, "lock": path}).Wrap(ctx.Err())
	ce.Exit = clierr.ExitInterrupted
	return ce
}

// LockPath is the lock file of name.
func (l *Locks) LockPath(name string) string { return filepath.Join(l.Dir, name+".lock") }

// With runs fn while holding name's lock and releases it afterwards, also when
// fn fails or panics.
func (l *Locks) With(ctx context.Context, name string, fn func() error) error {
	if l.held != "" {
		return fmt.Errorf("%w: holding %q, asked for %q", ErrLockNesting, l.held, name)
	}
	timeout := l.Timeout
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	path := l.LockPath(name)
	lk := flock.New(path)
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	ok, err := lk.TryLockContext(waitCtx, lockRetry)
	if !ok {
		lk.Close()
		if ctx.Err() != nil {
			return interrupted(ctx, name, path)
		}
		if err == nil || errors.Is(err, context.DeadlineExceeded) {
			return &LockTimeoutError{Name: name, Path: path, Waited: time.Since(start).Round(time.Millisecond)}
		}
		return fmt.Errorf("lock %s: %w", path, err)
	}
	l.held = name
	defer func() {
		l.held = ""
		lk.Unlock()
		lk.Close()
	}()
	return fn()
}
