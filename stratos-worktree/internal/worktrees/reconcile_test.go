package worktrees

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/stratos-worktree/internal/gitx"
)

// A reconcile stopped by SIGINT while it waits for a worktree's lock is an
// interruption (exit 130), never a successful reconcile with a warning; the
// worktree it could not settle stays.
func TestReconcileInterruptedWhileWaitingForALock(t *testing.T) {
	repo := gitRepo(t)
	m := &Manager{Git: &gitx.Git{}, LockTimeout: time.Hour}
	res, err := m.Acquire(context.Background(), AcquireRequest{Dir: repo, Name: "held", Cleanup: true})
	if err != nil {
		t.Fatalf("acquire: %v", err)
	}
	holder := flock.New(filepath.Join(repo, ".git", registrySubdir, "held.lock"))
	if ok, err := holder.TryLock(); err != nil || !ok {
		t.Fatalf("hold the lock: %v %v", ok, err)
	}
	defer holder.Unlock()

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel) // while Reconcile waits (the lock is held for the whole test)
	out, err := m.Reconcile(ctx, repo)
	ce := clierr.As(err)
	if out != nil || ce == nil || ce.Code != errcode.CodeInterrupted || ce.Exit != clierr.ExitInterrupted {
		t.Fatalf("Reconcile = %+v, %v; want the interrupted error (exit 130)", out, err)
	}
	if _, err := os.Stat(res.Path); err != nil {
		t.Errorf("the worktree reconcile could not settle is gone: %v", err)
	}
}

func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "first"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}
