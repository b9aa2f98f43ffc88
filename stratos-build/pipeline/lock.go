package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/clierr"
)

// lockPollInterval is how often a waiting build tries the root lock again.
const lockPollInterval = 250 * time.Millisecond

// lockHolder says which process holds a root's build lock. The holder
// writes it beside the lock once it has the lock, so that a build waiting
// for it can say what it waits for.
type lockHolder struct {
	PID     int       `json:"pid"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
}

// withRootLock runs f holding the root's build lock, so that two processes
// never build the same root at once (npm, tsc and wrappers would race).
// While it waits it says once who holds the lock.
func withRootLock(ctx context.Context, rootDir string, log hclog.Logger, f func() error) error {
	lockDir := filepath.Join(rootDir, ".generated")
	if err := os.MkdirAll(lockDir, 0o755); err != nil {
		return clierr.New("root_unwritable", "create %s: %v", lockDir, err)
	}
	lk := flock.New(filepath.Join(lockDir, ".build.lock"))
	holderPath := lk.Path() + ".holder"
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
		return clierr.New("lock_failed", "lock %s: %v", lk.Path(), err)
	}
	defer lk.Unlock()
	if err := writeHolder(holderPath); err != nil {
		log.Warn("record the build lock's holder", "file", holderPath, "error", err)
	}
	defer os.Remove(holderPath)
	return f()
}

// writeHolder records this process as the lock's holder, atomically: a
// waiting build never reads half a record.
func writeHolder(path string) error {
	h := lockHolder{PID: os.Getpid(), Command: strings.Join(os.Args, " "), Since: time.Now().UTC().Truncate(time.Second)}
	data, err := json.Marshal(h)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// readHolder returns the recorded holder; a zero holder when there is no
// readable record (a holder from before this format, or one that has just
// taken the lock and not yet written it).
func readHolder(path string) lockHolder {
	var h lockHolder
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
