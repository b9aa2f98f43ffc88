package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/roots"
)

// lockPollInterval is how often a waiting build tries the root lock again.
const lockPollInterval = 250 * time.Millisecond

// lockHolder says which process holds a root's build lock. The holder
// records it once it has the lock, so that a build waiting for it can say
// what it waits for. The record lives under ~/.stratos/locks, keyed by the
// lock's path, not in the root: a build that reuses everything leaves the
// root exactly as it was.
type lockHolder struct {
	PID     int       `json:"pid"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
}

// withRootLock runs f, a build, holding the root's build lock, and then
// refreshes the root's listing index from the outcome f left in *out.
func withRootLock(ctx context.Context, rootDir string, log hclog.Logger, out **Outcome, f func() error) error {
	return lockRoot(ctx, rootDir, log, func() error {
		err := f()
		if ctx.Err() == nil {
			writeListIndex(rootDir, *out, log)
		}
		return err
	})
}

// lockRoot runs f holding the root's build lock, so that two processes
// never build the same root at once (npm, tsc and wrappers would race).
// While it waits it says once who holds the lock.
func lockRoot(ctx context.Context, rootDir string, log hclog.Logger, f func() error) error {
	lockDir := filepath.Join(rootDir, ".generated")
	if err := os.MkdirAll(lockDir, 0o755); err != nil {
		return clierr.New(buildapi.CodeRootUnwritable, "create %s: %v", lockDir, err)
	}
	lk := flock.New(filepath.Join(lockDir, ".build.lock"))
	holderPath := holderFile(lk.Path())
	ok, err := lk.TryLock()
	if err == nil && !ok {
		holder := readHolder(holderPath)
		log.Info("waiting for another stratos build of this root to finish", "root", rootDir, "holder", holder.describe())
		ok, err = lk.TryLockContext(ctx, lockPollInterval)
		if ctx.Err() != nil {
			ce := Interrupted(ctx, PhaseLock, "held by %s", holder.describe())
			ce.Details["lock"], ce.Details["holder"] = lk.Path(), holder
			return ce
		}
	}
	if err != nil || !ok {
		return clierr.New(buildapi.CodeLockFailed, "lock %s: %v", lk.Path(), err)
	}
	defer lk.Unlock()
	if holderPath != "" {
		if err := writeHolder(holderPath); err != nil {
			log.Warn("record the build lock's holder", "file", holderPath, "error", err)
		}
		defer os.Remove(holderPath)
	}
	return f()
}

// WithRootLock runs f holding the build lock of the discovery root at
// rootDir, as a build does. Clean takes it so that it never removes what a
// running build is writing; waiting for it is interruptible like a build's
// wait (PhaseLock).
func WithRootLock(ctx context.Context, rootDir string, log hclog.Logger, f func() error) error {
	return lockRoot(ctx, rootDir, log, f)
}

// holderFile is where the holder of the lock at lockPath is recorded; ""
// when there is no home directory to record it in.
func holderFile(lockPath string) string {
	home, err := roots.StratosHome()
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(lockPath))
	return filepath.Join(home, "locks", "build-"+hex.EncodeToString(sum[:8])+".json")
}

// writeHolder records this process as the lock's holder, atomically: a
// waiting build never reads half a record. Only the lock's holder writes
// the record, so the temporary files of a holder killed while writing it
// are removed first. The record helps a waiting build explain itself and
// is removed on unlock, so it is not flushed to disk.
func writeHolder(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if _, err := atomicfile.RemoveTemps(path); err != nil {
		return err
	}
	h := lockHolder{PID: os.Getpid(), Command: strings.Join(os.Args, " "), Since: time.Now().UTC().Truncate(time.Second)}
	data, err := json.Marshal(h)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, atomicfile.Private, atomicfile.NoSync())
}

// readHolder returns the recorded holder; a zero holder when there is no
// readable record (a holder from before this format, or one that has just
// taken the lock and not yet written it).
func readHolder(path string) lockHolder {
	var h lockHolder
	if path == "" {
		return h
	}
	if data, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(data, &h)
	}
	return h
}

func (h lockHolder) describe() string {
	if h.PID == 0 {
		return "an unknown process"
	}
	return sprintf("pid %d (%s) since %s", h.PID, h.Command, h.Since.Format(time.RFC3339))
}
