package gitx

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"
)

// halfAdded is a repository whose second worktree's administrative files
// look as `git worktree add` leaves them midway: its commondir is created
// but still empty, which makes `git worktree list` fail.
func halfAdded(t *testing.T) (repo, commondir string) {
	t.Helper()
	dir := t.TempDir()
	repo = filepath.Join(dir, "repo")
	for _, args := range [][]string{{"init", "-q", "-b", "main", repo}, {"-C", repo, "commit", "-q", "--allow-empty", "-m", "init"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	admin := filepath.Join(repo, ".git", "worktrees", "new")
	checkout := filepath.Join(dir, "new")
	for _, d := range []string{admin, checkout} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(admin, "gitdir"):    filepath.Join(checkout, ".git") + "\n",
		filepath.Join(admin, "HEAD"):      "ref: refs/heads/main\n",
		filepath.Join(checkout, ".git"):   "gitdir: " + admin + "\n",
		filepath.Join(admin, "commondir"): "",
	}
	for p, body := range files {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return repo, filepath.Join(admin, "commondir")
}

// onFirstRun calls fn once, after the first git command has run (the
// debug line Git logs for every command).
type onFirstRun struct {
	once sync.Once
	fn   func()
	runs int
	mu   sync.Mutex
}

func (w *onFirstRun) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.runs += bytes.Count(p, []byte("git:"))
	w.mu.Unlock()
	w.once.Do(w.fn)
	return len(p), nil
}

func logTo(w *onFirstRun) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{Output: w, Level: hclog.Debug})
}

func TestListWorktreesRetriesAWorktreeBeingAdded(t *testing.T) {
	repo, commondir := halfAdded(t)
	w := &onFirstRun{fn: func() {
		if err := os.WriteFile(commondir, []byte("../..\n"), 0o644); err != nil {
			t.Error(err)
		}
	}}
	list, err := (&Git{Log: logTo(w)}).ListWorktrees(context.Background(), repo)
	if err != nil {
		t.Fatalf("the worktree finished being added during the retries, yet: %v", err)
	}
	if len(list) != 2 || w.runs != 2 {
		t.Fatalf("got %d worktrees after %d git runs, want 2 after 2: %+v", len(list), w.runs, list)
	}
}

func TestListWorktreesGivesUpOnAWorktreeLeftHalfWritten(t *testing.T) {
	repo, _ := halfAdded(t)
	w := &onFirstRun{fn: func() {}}
	_, err := (&Git{Log: logTo(w)}).ListWorktrees(context.Background(), repo)
	if err == nil || !strings.Contains(err.Error(), "commondir") {
		t.Fatalf("got %v, want git's failure naming the half-written commondir", err)
	}
	if w.runs != listAttempts {
		t.Fatalf("git ran %d times, want %d", w.runs, listAttempts)
	}
}

func TestListWorktreesDoesNotRetryOtherFailures(t *testing.T) {
	w := &onFirstRun{fn: func() {}}
	_, err := (&Git{Log: logTo(w)}).ListWorktrees(context.Background(), t.TempDir())
	if err == nil || w.runs != 1 {
		t.Fatalf("outside a repository: got %v after %d git runs, want a failure after 1", err, w.runs)
	}
}
