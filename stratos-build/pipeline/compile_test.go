package pipeline

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestRunCompilerCallsStartedWhileTheCompilerRuns: started runs once the
// process is up and before it is waited for (here the process waits for
// what started sends it, so a late call would never return).
func TestRunCompilerCallsStartedWhileTheCompilerRuns(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("head", "-c", "1")
	cmd.Stdin = r
	calls := 0
	err = runCompiler(cmd, func() {
		calls++
		_, _ = w.Write([]byte("x"))
		w.Close()
	})
	if err != nil || calls != 1 {
		t.Fatalf("runCompiler = %v with %d calls of started, want nil and 1", err, calls)
	}
}

// TestRunCompilerDoesNotCallStartedWhenNothingRuns: a compiler that cannot
// start leaves started uncalled (the batch then starts its loaders after
// the compile) and reports why.
func TestRunCompilerDoesNotCallStartedWhenNothingRuns(t *testing.T) {
	cmd := exec.Command(filepath.Join(t.TempDir(), "no-tsc-here"))
	called := false
	if err := runCompiler(cmd, func() { called = true }); err == nil || called {
		t.Fatalf("runCompiler = %v, started called: %v; want an error and no call", err, called)
	}
	if err := runCompiler(exec.Command("true"), nil); err != nil {
		t.Fatalf("runCompiler without started: %v", err)
	}
}

// tsc runs with its collector off up to half the machine's memory, unless
// the user set GOGC or GOMEMLIMIT.
func TestCompilerEnvTurnsTheCollectorOffUnderALimit(t *testing.T) {
	env := compilerEnv([]string{"PATH=/bin", "HOME=/h"})
	if len(env) != 4 || env[2] != "GOGC=off" || !strings.HasPrefix(env[3], "GOMEMLIMIT=") {
		t.Fatalf("compilerEnv = %q", env)
	}
	if limit, err := strconv.ParseUint(strings.TrimPrefix(env[3], "GOMEMLIMIT="), 10, 64); err != nil || limit < 64<<20 {
		t.Errorf("GOMEMLIMIT = %q, want a byte count of half the RAM", env[3])
	}
	for _, own := range []string{"GOGC=50", "GOMEMLIMIT=1GiB"} {
		in := []string{"PATH=/bin", own}
		if got := compilerEnv(in); !slices.Equal(got, in) {
			t.Errorf("with %s: compilerEnv = %q, want the user's environment as it is", own, got)
		}
	}
	cmd := exec.Command("sh", "-c", `test "$GOGC" = off && test -n "$GOMEMLIMIT"`)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	if err := runCompiler(cmd, nil); err != nil {
		t.Errorf("the compiler did not run in compilerEnv: %v", err)
	}
}
