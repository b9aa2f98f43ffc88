package gitx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

func run(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func realTemp(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The file readers must agree with git itself on every layout they accept,
// and decline the ones they do not understand.
func TestLayoutAgreesWithGit(t *testing.T) {
	base := realTemp(t)
	repo := filepath.Join(base, "repo")
	run(t, base, "init", "-q", "-b", "main", "repo")
	run(t, repo, "commit", "-q", "--allow-empty", "-m", "one")
	linked := filepath.Join(repo, ".stratos", "worktrees", "a")
	run(t, repo, "worktree", "add", "-q", "-b", "stratos/a", linked)
	detached := filepath.Join(repo, ".stratos", "worktrees", "d")
	run(t, repo, "worktree", "add", "-q", "--detach", detached)
	gone := filepath.Join(repo, ".stratos", "worktrees", "gone")
	run(t, repo, "worktree", "add", "-q", "-b", "stratos/gone", gone)
	run(t, repo, "pack-refs", "--all") // branch refs only in packed-refs now
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(linked, "deep", "er"), 0o755); err != nil {
		t.Fatal(err)
	}

	g := &Git{}
	list, err := g.ListWorktrees(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	want := Layout{Root: repo, CommonDir: filepath.Join(repo, ".git")}
	for _, dir := range []string{repo, linked, filepath.Join(linked, "deep", "er"), detached} {
		got, err := FindLayout(dir)
		if err != nil || got != want {
			t.Errorf("FindLayout(%s) = %+v, %v; want %+v", dir, got, err, want)
		}
	}
	for _, w := range list[1:] {
		got, ok := CheckoutAt(want.CommonDir, w.Path)
		if w.Prunable {
			if ok {
				t.Errorf("CheckoutAt(%s) accepted a deleted checkout", w.Path)
			}
			if reg, err := RegisteredAt(want.CommonDir, w.Path); err != nil || !reg {
				t.Errorf("RegisteredAt(%s) = %v, %v; want true", w.Path, reg, err)
			}
			continue
		}
		if !ok || !reflect.DeepEqual(got, w) {
			t.Errorf("CheckoutAt(%s) = %+v, %v; git says %+v", w.Path, got, ok, w)
		}
	}
	if reg, err := RegisteredAt(want.CommonDir, filepath.Join(repo, "nowhere")); err != nil || reg {
		t.Errorf("RegisteredAt(nowhere) = %v, %v", reg, err)
	}
	// A plain directory, and the main worktree itself, are not checkouts.
	for _, p := range []string{filepath.Join(linked, "deep"), repo} {
		if _, ok := CheckoutAt(want.CommonDir, p); ok {
			t.Errorf("CheckoutAt(%s) accepted a non-checkout", p)
		}
	}
}

func TestLayoutDeclinesWhatItDoesNotKnow(t *testing.T) {
	base := realTemp(t)
	run(t, base, "init", "-q", "--bare", "bare.git")
	if _, err := FindLayout(filepath.Join(base, "bare.git")); err == nil {
		t.Error("FindLayout accepted a bare repository")
	}
	run(t, base, "init", "-q", "-b", "main", "wt")
	run(t, filepath.Join(base, "wt"), "config", "core.worktree", filepath.Join(base, "elsewhere"))
	if _, err := FindLayout(filepath.Join(base, "wt")); err == nil {
		t.Error("FindLayout accepted core.worktree")
	}
	// --separate-git-dir: .git is a file pointing at the common directory.
	run(t, base, "init", "-q", "-b", "main", "--separate-git-dir", filepath.Join(base, "sep.git"), "sep")
	got, err := FindLayout(filepath.Join(base, "sep"))
	if err != nil || got.Root != filepath.Join(base, "sep") || got.CommonDir != filepath.Join(base, "sep.git") {
		t.Errorf("separate git dir: %+v, %v", got, err)
	}
	if _, err := FindLayout("/"); err == nil {
		t.Error("FindLayout(/) found a repository")
	}
}
