package worker

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// A worker that starts again finds the checkouts it left: those of ended
// runs go unless they hold work no remote has, which the worker says once;
// those of runs still going, or that it works for, stay.
func TestSweepRemovesWhatEndedRunsLeftWithoutLosingWork(t *testing.T) {
	dir := t.TempDir()
	remote := filepath.Join(dir, "remote.git")
	git(t, dir, "init", "-q", "--bare", "-b", "main", remote)
	src := filepath.Join(dir, "src")
	git(t, dir, "init", "-q", "-b", "main", src)
	git(t, src, "commit", "-q", "--allow-empty", "-m", "first")
	git(t, src, "push", "-q", remote, "main")
	workerDir := filepath.Join(dir, "worker")
	for _, run := range []string{"run-clean", "run-changed", "run-going", "run-busy"} {
		git(t, dir, "clone", "-q", remote, filepath.Join(workerDir, "checkouts", run))
	}
	if err := os.WriteFile(filepath.Join(workerDir, "checkouts", "run-changed", "notes.txt"), []byte("work\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var said bytes.Buffer
	r := newRepos(workerDir, &said)
	ended := func(_ context.Context, runID string) (bool, error) { return runID != "run-going", nil }
	busy := func(runID string) bool { return runID == "run-busy" }
	r.sweep(context.Background(), ended, busy)
	r.sweep(context.Background(), ended, busy)

	left, err := os.ReadDir(filepath.Join(workerDir, "checkouts"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "run-busy run-changed run-going" {
		t.Errorf("checkouts left: %s, want run-busy run-changed run-going", got)
	}
	if n := strings.Count(said.String(), "keeps its checkout"); n != 1 || !strings.Contains(said.String(), "run run-changed: keeps its checkout") || !strings.Contains(said.String(), "?? notes.txt") {
		t.Errorf("the worker said (%d times):\n%s", n, said.String())
	}
}
