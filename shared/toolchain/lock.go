package toolchain

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/toolchainapi"
)

// tempPrefix starts the name of every directory an install is being built
// in. Only the lock holder creates them, so the lock holder may remove any it
// finds: they are leftovers of an interrupted install.
const tempPrefix = ".tmp-"

// lockDir takes the toolchain directory's install lock, waiting for another
// process that holds it. It returns the unlock function.
func lockDir(ctx context.Context, dir string, log hclog.Logger) (func(), error) {
	fl := flock.New(filepath.Join(dir, ".lock"))
	ok, err := fl.TryLock()
	if err == nil && !ok {
		log.Info("waiting for another Stratos process to finish installing into the toolchain", "dir", dir)
		ok, err = fl.TryLockContext(ctx, 200*time.Millisecond)
	}
	if err != nil || !ok {
		if err == nil {
			err = ctx.Err()
		}
		return nil, clierr.New(toolchainapi.CodeToolchainLocked, "lock %s: %v", fl.Path(), err).Wrap(err)
	}
	removeLeftovers(dir, log)
	return func() { _ = fl.Unlock() }, nil
}

func removeLeftovers(dir string, log hclog.Logger) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			p := filepath.Join(dir, e.Name())
			log.Debug("removing an interrupted install", "path", p)
			_ = os.RemoveAll(p)
		}
	}
}
