package repository

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// pushFromElsewhere commits file on top of the remote's branch, as another
// worker's agent would, and pushes it.
func pushFromElsewhere(t *testing.T, remote, branch, file string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "elsewhere")
	run(t, filepath.Dir(dir), "clone", "-q", "-b", branch, remote, dir)
	if err := os.WriteFile(filepath.Join(dir, file), []byte(file+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "from elsewhere: "+file)
	run(t, dir, "push", "-q", "origin", branch)
	return run(t, dir, "rev-parse", "HEAD")
}

func TestRefreshBringsAnotherWorkersPushesForward(t *testing.T) {
	ctx := context.Background()
	remote, clone, commit := project(t)
	checkout, wt := checkoutWithWorktree(t, remote, commit)
	if _, err := Publish(ctx, Work{Dir: wt, Branch: "stratos/fix", Remote: remote, RunID: "run-1", Message: "first execute"}); err != nil {
		t.Fatal(err)
	}
	// A branch of this checkout no worktree has, and one it lacks.
	run(t, checkout, "branch", "stratos/idle", commit)
	run(t, clone, "push", "-q", "origin", commit+":refs/heads/stratos/idle")
	idle := pushFromElsewhere(t, remote, "stratos/idle", "idle.txt")
	run(t, clone, "push", "-q", "origin", commit+":refs/heads/stratos/new")
	fix := pushFromElsewhere(t, remote, "stratos/fix", "review.txt")

	if err := Refresh(ctx, checkout, remote); err != nil {
		t.Fatal(err)
	}
	if got := run(t, wt, "rev-parse", "HEAD"); got != fix {
		t.Fatalf("the clean worktree is at %s, want the other worker's %s", got, fix)
	}
	if _, err := os.Stat(filepath.Join(wt, "review.txt")); err != nil {
		t.Fatalf("the other worker's file is not in the worktree: %v", err)
	}
	if got := run(t, checkout, "rev-parse", "stratos/idle"); got != idle {
		t.Fatalf("stratos/idle is at %s, want %s", got, idle)
	}
	if got := run(t, checkout, "rev-parse", "stratos/new"); got != commit {
		t.Fatalf("stratos/new is at %s, want %s", got, commit)
	}
	// The agent's next execute continues that work, and its push is not
	// rejected.
	if err := os.WriteFile(filepath.Join(wt, "notes.txt"), []byte("plan, reviewed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(ctx, Work{Dir: wt, Branch: "stratos/fix", Remote: remote, RunID: "run-1", Message: "second execute"}); err != nil {
		t.Fatalf("after Refresh: %v", err)
	}
	if got := run(t, remote, "log", "--format=%s", "stratos/fix"); got != "second execute\nfrom elsewhere: review.txt\nfirst execute\nfirst" {
		t.Fatalf("the remote's stratos/fix:\n%s", got)
	}
}

func TestRefreshLeavesWorkItCannotMoveForward(t *testing.T) {
	ctx := context.Background()
	remote, _, commit := project(t)
	checkout, wt := checkoutWithWorktree(t, remote, commit)
	if _, err := Publish(ctx, Work{Dir: wt, Branch: "stratos/fix", Remote: remote, RunID: "run-1", Message: "first execute"}); err != nil {
		t.Fatal(err)
	}
	pushFromElsewhere(t, remote, "stratos/fix", "review.txt")

	// A worktree with changes is not touched.
	if err := os.WriteFile(filepath.Join(wt, "notes.txt"), []byte("changed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	head := run(t, wt, "rev-parse", "HEAD")
	if err := Refresh(ctx, checkout, remote); err != nil {
		t.Fatal(err)
	}
	if got := run(t, wt, "rev-parse", "HEAD"); got != head {
		t.Fatalf("a worktree with changes moved from %s to %s", head, got)
	}
	// Nor is one whose branch diverged from the remote's.
	run(t, wt, "commit", "-q", "-am", "local only")
	head = run(t, wt, "rev-parse", "HEAD")
	if err := Refresh(ctx, checkout, remote); err != nil {
		t.Fatal(err)
	}
	if got := run(t, wt, "rev-parse", "HEAD"); got != head {
		t.Fatalf("a diverged worktree moved from %s to %s", head, got)
	}
}

// TestOnlyTheCallThatMadeACheckoutSkipsItsRefresh: the call that made the
// run's checkout has the remote's agent branches of a moment ago; any
// other call (later, or on a checkout a restarted worker reuses) may come
// after another worker pushed, and must refresh.
func TestOnlyTheCallThatMadeACheckoutSkipsItsRefresh(t *testing.T) {
	remote, clone, commit := project(t)
	dir := t.TempDir()
	repo := engine.Repository{Remote: remote, Commit: commit, Root: "/elsewhere", Subdir: "."}
	ctx := context.Background()
	run(t, clone, "push", "-q", "origin", "main:stratos/fix")
	pushed := pushFromElsewhere(t, remote, "stratos/fix", "first.txt")
	checkout, fresh, err := NewCheckouts(dir).Made(ctx, "run-1", repo)
	if err != nil || !fresh {
		t.Fatalf("Made = %v, %v; want a fresh checkout", fresh, err)
	}
	if got := run(t, checkout, "rev-parse", "stratos/fix"); got != pushed {
		t.Fatalf("the fresh checkout's stratos/fix is %s, want the remote's %s", got, pushed)
	}
	cs := NewCheckouts(dir) // the worker restarted: its checkout is reused
	for i := range 2 {
		if _, fresh, err := cs.Made(ctx, "run-1", repo); err != nil || fresh {
			t.Fatalf("Made #%d of a reused checkout = %v, %v; want not fresh", i+1, fresh, err)
		}
	}
}
