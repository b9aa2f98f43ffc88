package sdk_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/sdk"
)

// childCallerWorkflow imports the child wrappers' runtime, as every
// workflow that requires another one does through its wrapper.
const childCallerWorkflow = `import * as z from "zod";
import { workflow } from "@stratoscli/stratos";
import { createChildWorkflow } from "@stratoscli/stratos/generated";
void createChildWorkflow;
export default workflow({
  input: z.strictObject({ n: z.number().describe("A number.") }),
  output: z.strictObject({ n: z.number().describe("The number.") }),
  async run(input) { return input; },
});
`

// appendToInstalled appends code to a module of root's installed SDK.
func appendToInstalled(t *testing.T, root, module, code string) {
	t.Helper()
	path := filepath.Join(sdk.InstalledDir(root), "dist", module)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("\n" + code + "\n"); err != nil {
		t.Fatal(err)
	}
}

// TestLoaderWarmsUpBeforeTheInvocation: a loader started ahead imports the
// SDK's entry points before it is told which entries to load, so that the
// import overlaps with the compile that produces them.
func TestLoaderWarmsUpBeforeTheInvocation(t *testing.T) {
	r := newLoadRoot(t)
	marker := filepath.Join(t.TempDir(), "warmed-up")
	t.Setenv("STRATOS_TEST_WARMUP_MARKER", marker)
	appendToInstalled(t, r.root, "generated.js",
		`(await import("node:fs")).writeFileSync(process.env.STRATOS_TEST_WARMUP_MARKER, "imported");`)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l := sdk.StartLoader(ctx, r.tc, r.root, &bytes.Buffer{})
	defer l.Close()
	// No entry exists yet and no invocation was sent: only the warm-up can
	// import the wrappers' runtime.
	waitForFile(ctx, t, marker, "the loader did not import @stratoscli/stratos/generated before its invocation")
	entry := r.compile(t, "caller", childCallerWorkflow)
	if got := l.Load([]string{entry}, 0)[0]; got.Err != nil {
		t.Fatalf("load after the warm-up: %v", got.Err)
	}
}

// startWithDescribeHook starts a loader ahead of any invocation in r's
// root, whose installed describe.js first runs before on every call of
// describeDefinition (a module's own function binding, which its
// importers see through the live export); before sees describeCalls, the
// calls so far, and $STRATOS_TEST_DESCRIBE_MARKER, a file it may write. It
// returns the loader and the marker's path.
func startWithDescribeHook(t *testing.T, r *loadRoot, before string) (*sdk.Loader, string) {
	t.Helper()
	marker := filepath.Join(t.TempDir(), "marker")
	t.Setenv("STRATOS_TEST_DESCRIBE_MARKER", marker)
	appendToInstalled(t, r.root, "describe.js", `const originalDescribe = describeDefinition;
let describeCalls = 0;
describeDefinition = function (definition) {
  describeCalls++;
  `+before+`
  return originalDescribe(definition);
};`)
	l := sdk.StartLoader(context.Background(), r.tc, r.root, &bytes.Buffer{})
	t.Cleanup(l.Close)
	return l, marker
}

// waitForFile waits until path exists, failing with what when ctx ends
// first.
func waitForFile(ctx context.Context, t *testing.T, path, what string) {
	t.Helper()
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if ctx.Err() != nil {
			t.Fatal(what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// writeMarker is JavaScript that writes text to the describe hook's marker.
func writeMarker(text string) string {
	return `process.getBuiltinModule("node:fs").writeFileSync(process.env.STRATOS_TEST_DESCRIBE_MARKER, ` + text + `);`
}

// TestLoaderWarmUpDescribesBeforeTheInvocation: a loader with time to
// spare before its invocation also defines and describes a workflow of its
// own, so that Zod's and the conversion's first run is not paid by the
// first entry after the compile.
func TestLoaderWarmUpDescribesBeforeTheInvocation(t *testing.T) {
	r := newLoadRoot(t)
	l, marker := startWithDescribeHook(t, r, writeMarker("String(describeCalls)"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	waitForFile(ctx, t, marker, "the loader described no definition before its invocation")
	entry := r.compile(t, "plain", pidWorkflow("plain"))
	if got := l.Load([]string{entry}, 0)[0]; got.Err != nil {
		t.Fatalf("load after the warm-up: %v", got.Err)
	}
	if data, _ := os.ReadFile(marker); string(data) != "2" {
		t.Errorf("describeDefinition ran %s times, want 2 (the warm-up's and the entry's)", data)
	}
}

// TestLoaderWarmUpDescribeFailureChangesNothing: when the warm-up's own
// description throws, the entries still load and are described.
func TestLoaderWarmUpDescribeFailureChangesNothing(t *testing.T) {
	r := newLoadRoot(t)
	l, marker := startWithDescribeHook(t, r, `if (describeCalls === 1) {
    `+writeMarker(`"thrown"`)+`
    throw new Error("warm-up description broken");
  }`)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	waitForFile(ctx, t, marker, "the warm-up did not describe its definition before the invocation")
	entry := r.compile(t, "plain", pidWorkflow("plain"))
	got := l.Load([]string{entry}, 0)[0]
	if got.Err != nil {
		t.Fatalf("load after a failed warm-up description: %v", got.Err)
	}
	if got.Definition == nil || len(got.Definition.Input) == 0 {
		t.Fatalf("load after a failed warm-up description: no definition: %+v", got)
	}
}

// TestLoaderWarmUpFailureIsTheEntrys: when an SDK module the warm-up
// imports throws, the loader goes on; only an entry that imports that
// module fails, with the module's error, as it did without a warm-up.
func TestLoaderWarmUpFailureIsTheEntrys(t *testing.T) {
	r := newLoadRoot(t)
	appendToInstalled(t, r.root, "generated.js", `throw new Error("generated runtime broken");`)
	plain := r.compile(t, "plain", pidWorkflow("plain"))
	caller := r.compile(t, "caller", childCallerWorkflow)
	got := sdk.LoadDefinitions(context.Background(), r.tc, r.root, []string{plain, caller}, &bytes.Buffer{}, time.Minute)
	if got[0].Err != nil {
		t.Errorf("an entry that does not import the broken module: %v", got[0].Err)
	}
	wantCode(t, got[1].Err, "definition_load_failed", "Error: generated runtime broken")
}

// exitBlockingWorkflow is a valid workflow whose process, once it exits,
// waits in its exit handler until the file $STRATOS_TEST_RELEASE exists;
// it writes its process ID to $STRATOS_TEST_PIDFILE when it loads.
const exitBlockingWorkflow = `import * as z from "zod";
import { existsSync, writeFileSync } from "node:fs";
import { workflow } from "@stratoscli/stratos";
writeFileSync(process.env.STRATOS_TEST_PIDFILE ?? "", String(process.pid));
process.on("exit", () => { while (!existsSync(process.env.STRATOS_TEST_RELEASE ?? "")) {} });
export default workflow({
  input: z.strictObject({ n: z.number().describe("A number.") }),
  output: z.strictObject({ n: z.number().describe("The number.") }),
  async run(input) { return input; },
});
`

// TestLoadEachReturnsBeforeTheLoaderExits: LoadEach hands the definitions
// over and returns while the loader is still exiting; Close then waits for
// that exit, and nothing of the process is left.
func TestLoadEachReturnsBeforeTheLoaderExits(t *testing.T) {
	r := newLoadRoot(t)
	dir := t.TempDir()
	pidFile, release := filepath.Join(dir, "pid"), filepath.Join(dir, "release")
	t.Setenv("STRATOS_TEST_PIDFILE", pidFile)
	t.Setenv("STRATOS_TEST_RELEASE", release)
	entry := r.compile(t, "blocks-exit", exitBlockingWorkflow)
	l := sdk.StartLoader(context.Background(), r.tc, r.root, &bytes.Buffer{})
	released := false
	defer func() {
		if !released {
			_ = os.WriteFile(release, nil, 0o644)
			l.Close()
		}
	}()
	// Load would wait here until the release, which only comes after it.
	var got sdk.Loaded
	l.LoadEach([]string{entry}, 0, func(_ int, r sdk.Loaded) { got = r })
	if got.Err != nil {
		t.Fatalf("LoadEach: %v", got.Err)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the loader (pid %d) is gone before Close: %v", pid, err)
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	released = true
	l.Close()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the loader (pid %d) is still there after Close: %v", pid, err)
	}
}
