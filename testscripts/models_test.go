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
// candidates over the embedded catalog, and `stratos-models generate` over
// trees written by the scripts and over the research fixture. The fixture
// and the pinned snapshot live in the read-only shared/ directory beside the
// repository; the test fails (never skips) when it is missing.
func TestModels(t *testing.T) {
	shared := sharedDir(t)
	p := params(t, "models")
	base := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := base(env); err != nil {
			return err
		}
		env.Setenv("MODELS_DEV_FIXTURE", filepath.Join(shared, "fixtures", "models-dev-sample"))
		return nil
	}
	p.Cmds = map[string]func(*testscript.TestScript, bool, []string){"exitcode": exitCode}
	testscript.Run(t, p)
}

// sharedDir returns <repo>/../shared, where CI keeps a read-only copy.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "shared"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "fixtures", "models-dev-sample", "REVISION")); err != nil {
		t.Fatalf("the models tests need the shared/ directory beside the repository (%s): %v", dir, err)
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
