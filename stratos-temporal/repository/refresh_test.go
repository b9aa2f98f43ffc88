package repository

import (
	"context"
	"os"
	"path/filepath"
	"testing"
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
