package records

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestNewExecutionID(t *testing.T) {
	at := time.Date(2026, 12, 2, 17, 0, 5, 999, time.FixedZone("CET", 3600))
	id, err := NewExecutionID(at, bytes.NewReader([]byte{0x1a, 0x2b, 0x3c, 0x4d}))
	if err != nil || id != "20261202T160005Z-1a2b3c4d" {
		t.Fatalf("NewExecutionID = %q, %v; want 20261202T160005Z-1a2b3c4d (UTC)", id, err)
	}
	// IDs sort by time: a later second sorts later whatever the random part.
	later, _ := NewExecutionID(at.Add(time.Second), bytes.NewReader([]byte{0, 0, 0, 0}))
	if !(id < later) {
		t.Errorf("%s does not sort before %s", id, later)
	}
	if _, err := NewExecutionID(at, bytes.NewReader(nil)); err == nil {
		t.Error("no randomness: want an error")
	}
}

func TestRecordLifecycle(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	start := time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC)
	run, err := Begin(runs, Invocation{
		ExecutionID: "20261202T170000Z-00000001", Workflow: "hello", Dir: "/p/.stratos/workflows/hello",
		Root: "/p/.stratos/workflows", Cwd: "/p", Input: json.RawMessage(`{"a":1}`), PID: 42, StartedAt: start,
	})
	if err != nil {
		t.Fatal(err)
	}
	if run.Dir() != filepath.Join(runs, "20261202T170000Z-00000001") {
		t.Errorf("Dir() = %s", run.Dir())
	}
	assertFiles(t, run.Dir(), InvocationFile, StatusFile)
	var status Status
	readJSON(t, filepath.Join(run.Dir(), StatusFile), &status)
	if status.Status != StatusRunning || status.EndedAt != nil || status.ExitCode != nil || !status.StartedAt.Equal(start) {
		t.Errorf("status at start = %+v", status)
	}
	var inv map[string]any
	readJSON(t, filepath.Join(run.Dir(), InvocationFile), &inv)
	if inv["overrides"] != nil || inv["pid"] != float64(42) || inv["cwd"] != "/p" {
		t.Errorf("invocation.json = %v", inv)
	}

	end := start.Add(1500 * time.Millisecond)
	err = run.Finish(Final{Status: StatusFailed, ExitCode: 1, EndedAt: end,
		Error: map[string]any{"code": "workflow_failed"}, Tree: json.RawMessage(`{"workflow":"hello"}`), Warnings: []string{"w"}})
	if err != nil {
		t.Fatal(err)
	}
	assertFiles(t, run.Dir(), ErrorFile, InvocationFile, StatusFile, TreeFile)
	readJSON(t, filepath.Join(run.Dir(), StatusFile), &status)
	if status.Status != StatusFailed || status.EndedAt == nil || !status.EndedAt.Equal(end) || *status.ExitCode != 1 || status.Warnings[0] != "w" {
		t.Errorf("final status = %+v", status)
	}
}

func TestFinishSucceeded(t *testing.T) {
	run, err := Begin(t.TempDir(), Invocation{ExecutionID: "x", Workflow: "w", StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Finish(Final{Status: StatusSucceeded, EndedAt: time.Now(), Output: json.RawMessage(`{"ok":true}`)}); err != nil {
		t.Fatal(err)
	}
	assertFiles(t, run.Dir(), InvocationFile, OutputFile, StatusFile)
	// Run records are readable like the rest of the project's files.
	for _, name := range []string{InvocationFile, OutputFile, StatusFile} {
		if fi, err := os.Stat(filepath.Join(run.Dir(), name)); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s mode: %v, %v; want 0644", name, fi, err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(run.Dir(), OutputFile))
	if string(data) != "{\n  \"ok\": true\n}\n" {
		t.Errorf("output.json = %q", data)
	}
	var status map[string]any
	readJSON(t, filepath.Join(run.Dir(), StatusFile), &status)
	if status["exitCode"] != float64(0) || status["warnings"] != nil {
		t.Errorf("status = %v", status)
	}
}

// TestFinishWritesTheStatusLast: when the tree (written alongside the
// output) cannot be written, the status still says running, so no reader
// takes the run for finished without the files a final status describes.
func TestFinishWritesTheStatusLast(t *testing.T) {
	run, err := Begin(t.TempDir(), Invocation{ExecutionID: "x", Workflow: "w", StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	// A directory in the tree's place: renaming a file over it fails.
	if err := os.Mkdir(filepath.Join(run.Dir(), TreeFile), 0o755); err != nil {
		t.Fatal(err)
	}
	err = run.Finish(Final{Status: StatusSucceeded, EndedAt: time.Now(), Output: json.RawMessage(`{}`), Tree: json.RawMessage(`{}`)})
	if err == nil {
		t.Fatal("Finish = nil, want the tree's error")
	}
	var status Status
	readJSON(t, filepath.Join(run.Dir(), StatusFile), &status)
	if status.Status != StatusRunning {
		t.Errorf("status = %q after a failed Finish, want %q", status.Status, StatusRunning)
	}
}

func TestBeginReportsUnwritableRuns(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Begin(file, Invocation{ExecutionID: "x"})
	if err == nil || !strings.Contains(err.Error(), "write the run record") {
		t.Fatalf("Begin under a file = %v", err)
	}
}

// TestBeginLeavesNothingWhenItFails: a run whose record cannot be written
// leaves no directory (it would be listed as a damaged record) and no live
// entry.
func TestBeginLeavesNothingWhenItFails(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	_, err := Begin(runs, Invocation{ExecutionID: "20261206T080000Z-fail0001", Input: json.RawMessage("{not json")})
	if err == nil {
		t.Fatal("Begin wrote an invocation that is not JSON")
	}
	if _, err := os.Stat(filepath.Join(runs, "20261206T080000Z-fail0001")); !os.IsNotExist(err) {
		t.Errorf("the failed run's directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(runs, LiveDir, "20261206T080000Z-fail0001")); !os.IsNotExist(err) {
		t.Errorf("the failed run's live entry: %v", err)
	}
}

// TestRunsDirIsPrivate: the runs directory is the user's alone, whether
// Begin or CreateConsole makes it, and one an earlier version left open to
// others is narrowed.
func TestRunsDirIsPrivate(t *testing.T) {
	for name, create := range map[string]func(dir string) error{
		"Begin": func(dir string) error {
			_, err := Begin(dir, Invocation{ExecutionID: "20261206T080000Z-priv0001"})
			return err
		},
		"CreateConsole": func(dir string) error {
			f, err := CreateConsole(dir, "20261206T080000Z-priv0002")
			if err == nil {
				f.Close()
			}
			return err
		},
	} {
		for _, existing := range []bool{false, true} {
			dir := filepath.Join(t.TempDir(), "runs")
			if existing {
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(dir, 0o755); err != nil { // whatever the umask
					t.Fatal(err)
				}
			}
			if err := create(dir); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(dir)
			if err != nil {
				t.Fatal(err)
			}
			if info.Mode().Perm() != 0o700 {
				t.Errorf("%s, runs directory existed %v: mode %v, want 0700", name, existing, info.Mode().Perm())
			}
		}
	}
}

// assertFiles checks the directory holds exactly these files: no temporary
// file survives an atomic write.
func assertFiles(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("files in %s: %v, want %v", dir, got, want)
	}
	for _, name := range got {
		if regexp.MustCompile(`\.tmp$`).MatchString(name) {
			t.Errorf("temporary file left: %s", name)
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestBeginRecordsTheProcessStartTime(t *testing.T) {
	run, err := Begin(t.TempDir(), Invocation{ExecutionID: "20261202T170000Z-00000002", Workflow: "w", PID: os.Getpid(), StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	inv, err := ReadInvocation(run.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if inv.ProcessStart == 0 {
		t.Errorf("processStart not recorded for the live pid %d", os.Getpid())
	}
}

func TestMarkCrashedRewritesOnlyARunningStatus(t *testing.T) {
	runs := t.TempDir()
	start := time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC)
	noticed := start.Add(time.Hour)
	running, err := Begin(runs, Invocation{ExecutionID: "20261202T170000Z-00000003", Workflow: "w", PID: 1 << 30, StartedAt: start})
	if err != nil {
		t.Fatal(err)
	}
	st, err := MarkCrashed(running.Dir(), noticed, "gone")
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != StatusCrashed || st.Reconciled == nil || !st.Reconciled.At.Equal(noticed) || st.Reconciled.Reason != "gone" {
		t.Errorf("after MarkCrashed: %+v", st)
	}
	if onDisk, err := ReadStatus(running.Dir()); err != nil || onDisk.Status != StatusCrashed || onDisk.Reconciled == nil {
		t.Errorf("status.json after MarkCrashed = %+v, %v", onDisk, err)
	}
	assertFiles(t, running.Dir(), InvocationFile, StatusFile)

	finished, err := Begin(runs, Invocation{ExecutionID: "20261202T170000Z-00000004", Workflow: "w", PID: 1 << 30, StartedAt: start})
	if err != nil {
		t.Fatal(err)
	}
	if err := finished.Finish(Final{Status: StatusSucceeded, EndedAt: start, Output: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if st, err := MarkCrashed(finished.Dir(), noticed, "gone"); err != nil || st.Status != StatusSucceeded || st.Reconciled != nil {
		t.Errorf("MarkCrashed of a finished run = %+v, %v; want it unchanged", st, err)
	}
}

// files returns every file of dir by name, with its content.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(data)
	}
	return out
}

func beginIn(t *testing.T, runs string) *Run {
	t.Helper()
	run, err := Begin(runs, Invocation{ExecutionID: "20261202T170000Z-00000001", Workflow: "w", StartedAt: time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// TestWriteResultThenFinishWritesWhatFinishWould: whatever WriteResult
// wrote before, Finish leaves the record that Finish alone leaves, also
// when the run ended otherwise than the result written ahead said.
func TestWriteResultThenFinishWritesWhatFinishWould(t *testing.T) {
	end := time.Date(2026, 12, 2, 17, 0, 1, 0, time.UTC)
	succeeded := Final{Status: StatusSucceeded, EndedAt: end, Output: json.RawMessage(`{"ok":true}`), Tree: json.RawMessage(`{"workflow":"w"}`)}
	bare := Final{Status: StatusSucceeded, EndedAt: end, Output: json.RawMessage(`{"ok":true}`)}
	other := Final{Status: StatusSucceeded, EndedAt: end, Output: json.RawMessage(`{"ok":false}`), Tree: json.RawMessage(`{"workflow":"w"}`)}
	failed := Final{Status: StatusFailed, ExitCode: 1, EndedAt: end, Error: map[string]any{"code": "budget_exceeded"}, Tree: json.RawMessage(`{"workflow":"w"}`)}
	for _, c := range []struct {
		name          string
		ahead, finish Final
	}{
		{"the same", succeeded, succeeded},
		{"no tree after all", succeeded, bare},
		{"a tree after all", bare, succeeded},
		{"another output", succeeded, other},
		{"failed after all", succeeded, failed},
	} {
		t.Run(c.name, func(t *testing.T) {
			alone := beginIn(t, filepath.Join(t.TempDir(), "runs"))
			if err := alone.Finish(c.finish); err != nil {
				t.Fatal(err)
			}
			ahead := beginIn(t, filepath.Join(t.TempDir(), "runs"))
			if err := ahead.WriteResult(c.ahead); err != nil {
				t.Fatal(err)
			}
			var status Status
			readJSON(t, filepath.Join(ahead.Dir(), StatusFile), &status)
			if status.Status != StatusRunning {
				t.Errorf("status after WriteResult = %q, want running", status.Status)
			}
			if err := ahead.Finish(c.finish); err != nil {
				t.Fatal(err)
			}
			if got, want := files(t, ahead.Dir()), files(t, alone.Dir()); !reflect.DeepEqual(got, want) {
				t.Errorf("record after WriteResult and Finish:\n%v\nwant what Finish alone writes:\n%v", got, want)
			}
		})
	}
}

// TestFinishAfterAFailedWriteResult: a WriteResult that failed half-way
// leaves Finish everything to write.
func TestFinishAfterAFailedWriteResult(t *testing.T) {
	end := time.Date(2026, 12, 2, 17, 0, 1, 0, time.UTC)
	f := Final{Status: StatusSucceeded, EndedAt: end, Output: json.RawMessage(`{"ok":true}`), Tree: json.RawMessage(`{"workflow":"w"}`)}
	alone := beginIn(t, filepath.Join(t.TempDir(), "runs"))
	if err := alone.Finish(f); err != nil {
		t.Fatal(err)
	}
	run := beginIn(t, filepath.Join(t.TempDir(), "runs"))
	// A directory in the tree's place: renaming a file over it fails.
	blocker := filepath.Join(run.Dir(), TreeFile)
	if err := os.Mkdir(blocker, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := run.WriteResult(f); err == nil {
		t.Fatal("WriteResult = nil, want the tree's error")
	}
	if err := os.Remove(blocker); err != nil {
		t.Fatal(err)
	}
	if err := run.Finish(f); err != nil {
		t.Fatal(err)
	}
	if got, want := files(t, run.Dir()), files(t, alone.Dir()); !reflect.DeepEqual(got, want) {
		t.Errorf("record:\n%v\nwant:\n%v", got, want)
	}
}
