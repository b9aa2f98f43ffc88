package modelsdev

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/stratos-models/internal/testsource"
)

func TestReadRevisionFile(t *testing.T) {
	rev, err := ReadRevision(context.Background(), open(t, testsource.Fixture(t)))
	if err != nil {
		t.Fatal(err)
	}
	if rev.Commit != "f3fc692299671838c7c65fd8126bf84d81a2e817" {
		t.Errorf("commit = %q", rev.Commit)
	}
	root := writeTree(t, map[string]string{"REVISION": "not-a-hash 2026-01-01\n"})
	if _, err := ReadRevision(context.Background(), open(t, root)); err == nil || !strings.Contains(err.Error(), "40-digit commit hash") {
		t.Errorf("bad REVISION: %v", err)
	}
	if _, err := ReadRevision(context.Background(), open(t, t.TempDir())); err == nil || !strings.Contains(err.Error(), "no REVISION file and is not a git checkout") {
		t.Errorf("no revision: %v", err)
	}
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestReadRevisionFromGit(t *testing.T) {
	root := writeTree(t, baseTree())
	runGit(t, root, "init", "-q")
	runGit(t, root, "add", ".")
	runGit(t, root, "commit", "-q", "-m", "snapshot")
	head := runGit(t, root, "rev-parse", "HEAD")

	rev, err := ReadRevision(context.Background(), open(t, root))
	if err != nil {
		t.Fatal(err)
	}
	if rev.Commit != head || rev.Date == "" {
		t.Errorf("revision = %+v, want commit %s with a date", rev, head)
	}
	if err := os.WriteFile(filepath.Join(root, "providers/p/models/m1.toml"), []byte("# edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRevision(context.Background(), open(t, root)); err == nil || !strings.Contains(err.Error(), "local changes") {
		t.Errorf("dirty checkout: %v", err)
	}
}

func TestReadLicense(t *testing.T) {
	if got := ReadLicense(open(t, testsource.Fixture(t))); got != "MIT License" {
		t.Errorf("license = %q", got)
	}
	if got := ReadLicense(open(t, t.TempDir())); got != "" {
		t.Errorf("missing license = %q", got)
	}
}
