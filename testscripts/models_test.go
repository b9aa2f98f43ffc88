package testscripts

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestModels runs testdata/models: the `stratos models …` lookups and
// candidates over the embedded catalog, `stratos-models generate` over trees
// written by the scripts, over the vendored sample and over the vendored
// pinned snapshot, and scripts/refresh-models-snapshot.
func TestModels(t *testing.T) {
	repo := repoRoot(t)
	p := params(t, "models")
	base := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := base(env); err != nil {
			return err
		}
		models := filepath.Join(repo, "stratos-models")
		env.Setenv("MODELS_DEV_FIXTURE", filepath.Join(models, "testdata", "models-dev-sample.tar.gz"))
		env.Setenv("MODELS_DEV_SNAPSHOT", filepath.Join(models, "data", "modelsdev", "snapshot.tar.gz"))
		env.Setenv("SHIPPED_CATALOG", filepath.Join(models, "data", "models", "catalog.v1.json"))
		env.Setenv("REFRESH_SNAPSHOT", filepath.Join(repo, "scripts", "refresh-models-snapshot"))
		return nil
	}
	p.Cmds = map[string]func(*testscript.TestScript, bool, []string){"exitcode": exitCode}
	testscript.Run(t, p)
}

// repoRoot is the repository holding this module (the parent of testscripts/).
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "stratos-models", "data", "modelsdev", "snapshot.tar.gz")); err != nil {
		t.Fatalf("the models tests read the Models.dev data vendored in stratos-models: %v", err)
	}
	return dir
}

// exitCode runs `exitcode <n> <program> [args…]` and fails unless the
// program exits with n; stdout and stderr stay available to later checks.
// It tells exit 1 (operation failed) from exit 2 (usage, invalid input).
func exitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode <n> <program> [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}
