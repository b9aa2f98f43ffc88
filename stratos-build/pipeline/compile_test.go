package pipeline

import (
	"os"
	"os/exec"
	"path/filepath"
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
