package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// hold takes path's lock as Stratos does (flock(2) on its own open file);
// a second open file of the same process conflicts with it like another
// process would.
func hold(t *testing.T, path string) func() {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	return func() { _ = f.Close() }
}

func TestHeldLocks(t *testing.T) {
	dir := t.TempDir()
	held, free, gone := filepath.Join(dir, "held.lock"), filepath.Join(dir, "free.lock"), filepath.Join(dir, "gone.lock")
	release := hold(t, held)
	if err := os.WriteFile(free, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := heldLocks([]string{held, free, gone})
	if err != nil || !slices.Equal(got, []string{held}) {
		t.Errorf("heldLocks = %v, %v, want [%s]", got, err, held)
	}
	release()
	if got, err := heldLocks([]string{held, free}); err != nil || len(got) != 0 {
		t.Errorf("after the release heldLocks = %v, %v, want none", got, err)
	}
	// Checking takes the lock only for a moment: it is free again after.
	if got, _ := heldLocks([]string{free}); len(got) != 0 {
		t.Errorf("a checked lock stayed held: %v", got)
	}
}

func TestLockFiles(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "project", ".stratos", "workflows")
	home := filepath.Join(dir, "home", ".stratos")
	toolchain := filepath.Join(dir, "toolchain")
	sum := sha256.Sum256([]byte(root))
	files := map[string]bool{
		filepath.Join(root, ".generated", ".build.lock"):                              true,
		filepath.Join(root, "package-lock.json"):                                      false,
		filepath.Join(root, "node_modules", "x", "y.lock"):                            false,
		filepath.Join(home, "worktrees", "repo", "wt.lock"):                           true,
		filepath.Join(toolchain, "locks", "sdk-"+hex.EncodeToString(sum[:8])+".lock"): true,
		filepath.Join(toolchain, "locks", "sdk-0123456789abcdef.lock"):                false, // another root's
	}
	var want []string
	for p, listed := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if listed {
			want = append(want, p)
		}
	}
	got := lockFiles(root, home, toolchain)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("lockFiles =\n%v\nwant\n%v", got, want)
	}
}
