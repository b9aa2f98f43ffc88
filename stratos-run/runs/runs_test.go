package runs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/procid"
	"github.com/stratoscli/stratos/stratos-run/records"
)

var t0 = time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC)

// begin writes a running record for pid; id sorts by its start second.
func begin(t *testing.T, s *Store, id, workflow string, pid int, start time.Time) *records.Run {
	t.Helper()
	r, err := records.Begin(s.Dir, records.Invocation{ExecutionID: id, Workflow: workflow, PID: pid, StartedAt: start, Input: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// deadPID returns the pid of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func newStore(t *testing.T) *Store {
	noticed := t0.Add(time.Hour)
	return &Store{Dir: filepath.Join(t.TempDir(), "runs"), Now: func() time.Time { return noticed }}
}

func TestReconcileMarksADeadRunCrashedAndLeavesTheOthers(t *testing.T) {
	s := newStore(t)
	begin(t, s, "20261202T170000Z-dead0001", "w", deadPID(t), t0)
	begin(t, s, "20261202T170001Z-live0001", "w", os.Getpid(), t0.Add(time.Second))
	done := begin(t, s, "20261202T170002Z-done0001", "w", deadPID(t), t0.Add(2*time.Second))
	if err := done.Finish(records.Final{Status: records.StatusFailed, ExitCode: 1, EndedAt: t0.Add(3 * time.Second), Error: map[string]any{"code": "x"}}); err != nil {
		t.Fatal(err)
	}

	crashed, problems, err := s.ReconcileAll()
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	if !reflect.DeepEqual(crashed, []string{"20261202T170000Z-dead0001"}) {
		t.Errorf("reconciled %v, want only the dead run", crashed)
	}
	st, err := records.ReadStatus(filepath.Join(s.Dir, "20261202T170000Z-dead0001"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != records.StatusCrashed || st.Reconciled == nil || !st.Reconciled.At.Equal(t0.Add(time.Hour)) || !strings.Contains(st.Reconciled.Reason, "exited") {
		t.Errorf("dead run's status = %+v", st)
	}
	for id, want := range map[string]string{"20261202T170001Z-live0001": records.StatusRunning, "20261202T170002Z-done0001": records.StatusFailed} {
		if r, err := s.Load(id); err != nil || r.Status != want {
			t.Errorf("%s: %+v, %v; want %s", id, r, err, want)
		}
	}
}

func TestReconcileTellsAReusedPIDFromTheRun(t *testing.T) {
	s := newStore(t)
	r := begin(t, s, "20261202T170000Z-reused01", "w", os.Getpid(), t0)
	// The same pid, but a process that started at another time: the run's
	// process is gone and an unrelated one has its pid.
	inv, err := records.ReadInvocation(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	inv.ProcessStart++
	data, _ := json.Marshal(inv)
	if err := os.WriteFile(filepath.Join(r.Dir(), records.InvocationFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load("20261202T170000Z-reused01")
	if err != nil || got.Status != records.StatusCrashed || !strings.Contains(got.Reconciled.Reason, "another process") {
		t.Errorf("Load = %+v, %v; want crashed (pid reused)", got, err)
	}
}

func TestListIsNewestFirstAndFilters(t *testing.T) {
	s := newStore(t)
	for i, w := range []string{"a", "b", "a"} {
		r := begin(t, s, "20261202T17000"+string(rune('0'+i))+"Z-0000000"+string(rune('0'+i)), w, os.Getpid(), t0.Add(time.Duration(i)*time.Second))
		if i == 1 {
			if err := r.Finish(records.Final{Status: records.StatusSucceeded, EndedAt: t0.Add(2500 * time.Millisecond), Output: json.RawMessage(`{}`)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A record being created (no status yet) is not listed.
	if err := os.MkdirAll(filepath.Join(s.Dir, "20261202T170009Z-00000009"), 0o755); err != nil {
		t.Fatal(err)
	}
	all, problems, err := s.List(Filter{})
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	if ids := idsOf(all); !reflect.DeepEqual(ids, []string{"20261202T170002Z-00000002", "20261202T170001Z-00000001", "20261202T170000Z-00000000"}) {
		t.Errorf("List = %v, want newest first", ids)
	}
	if all[1].DurationMs != 1500 || all[1].PID != os.Getpid() {
		t.Errorf("finished run = %+v, want 1500 ms and the pid", all[1])
	}
	a, _, _ := s.List(Filter{Workflow: "a", Status: records.StatusRunning})
	if ids := idsOf(a); !reflect.DeepEqual(ids, []string{"20261202T170002Z-00000002", "20261202T170000Z-00000000"}) {
		t.Errorf("List(a, running) = %v", ids)
	}
	empty, _, err := (&Store{Dir: filepath.Join(t.TempDir(), "none")}).List(Filter{})
	if err != nil || len(empty) != 0 {
		t.Errorf("List of a missing runs directory = %v, %v; want none", empty, err)
	}
}

func idsOf(rs []Run) []string {
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.ExecutionID)
	}
	return ids
}

func TestResolveTakesAUniquePrefix(t *testing.T) {
	s := newStore(t)
	for _, id := range []string{"20261202T170000Z-aaaa0001", "20261202T170000Z-aaab0002", "20261202T170001Z-bbbb0003"} {
		begin(t, s, id, "w", os.Getpid(), t0)
	}
	if id, err := s.Resolve("20261202T170001"); err != nil || id != "20261202T170001Z-bbbb0003" {
		t.Errorf("unique prefix: %q, %v", id, err)
	}
	_, err := s.Resolve("20261202T170000Z-aaa")
	if ce := clierr.As(err); ce.Code != runapi.CodeRunAmbiguous || ce.Exit != clierr.ExitUsage || !strings.Contains(ce.Message, "aaaa0001") || !strings.Contains(ce.Message, "aaab0002") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	_, err = s.Resolve("2025")
	if ce := clierr.As(err); ce.Code != runapi.CodeRunNotFound || ce.Exit != clierr.ExitUsage {
		t.Errorf("unknown run: %v", err)
	}
}

// A prefix many runs share names only the newest few of them, and how
// many there are.
func TestAmbiguousPrefixNamesABoundedFew(t *testing.T) {
	s := newStore(t)
	var ids []string
	for i := range 25 {
		id := fmt.Sprintf("20261202T1700%02dZ-%08d", i, i)
		begin(t, s, id, "w", os.Getpid(), t0)
		ids = append(ids, id)
	}
	_, err := s.Resolve("2026")
	ce := clierr.As(err)
	newest := ids[15:]
	want := fmt.Sprintf(`run "2026" is ambiguous: 25 runs start with it, the newest 10: %s; give more of the execution ID`, strings.Join(newest, ", "))
	if ce.Code != runapi.CodeRunAmbiguous || ce.Message != want {
		t.Errorf("error %s %q\nwant %s %q", ce.Code, ce.Message, runapi.CodeRunAmbiguous, want)
	}
	if got, _ := ce.Details["candidates"].([]string); !reflect.DeepEqual(got, newest) || ce.Details["matches"] != 25 {
		t.Errorf("details %v, want the newest 10 candidates and matches 25", ce.Details)
	}
}

func TestLogsEmitsCompleteLinesOnly(t *testing.T) {
	s := newStore(t)
	r := begin(t, s, "20261202T170000Z-logs0001", "w", deadPID(t), t0)
	events := `{"type":"a"}` + "\n" + `{"type":"b"}` + "\n" + `{"type":"c"`
	if err := os.WriteFile(filepath.Join(r.Dir(), EventsFile), []byte(events), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	// Following a dead run ends: it is reconciled as crashed.
	err := s.Logs(context.Background(), "20261202T170000Z-logs0001", LogOptions{Follow: true, Poll: time.Millisecond}, func(line []byte) error {
		got = append(got, string(line))
		return nil
	})
	if err != nil || !reflect.DeepEqual(got, []string{`{"type":"a"}`, `{"type":"b"}`}) {
		t.Errorf("Logs = %q, %v; want the two complete lines", got, err)
	}
	d, err := s.Show("20261202T170000Z-logs0001")
	if err != nil || d.Events.Total != 2 || d.Events.ByType["a"] != 1 || d.Status != records.StatusCrashed {
		t.Errorf("Show = %+v, %v", d, err)
	}
}

func TestLogsFollowStopsWhenCancelled(t *testing.T) {
	s := newStore(t)
	begin(t, s, "20261202T170000Z-live0002", "w", os.Getpid(), t0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.Logs(ctx, "20261202T170000Z-live0002", LogOptions{Follow: true}, func([]byte) error { return nil })
	if err != context.Canceled {
		t.Errorf("Logs of a live run after cancel = %v, want context.Canceled", err)
	}
}

func TestStopRefusesARunThatIsNotRunning(t *testing.T) {
	s := newStore(t)
	begin(t, s, "20261202T170000Z-stop0001", "w", deadPID(t), t0)
	_, err := s.Stop(context.Background(), "20261202T170000Z-stop0001", StopOptions{})
	if ce := clierr.As(err); ce.Code != runapi.CodeRunNotRunning || ce.Exit != clierr.ExitFailed {
		t.Errorf("Stop of a dead run = %v, want %s", err, runapi.CodeRunNotRunning)
	}
}

func TestEventText(t *testing.T) {
	line := `{"type":"tool.completed","timestamp":"2026-12-02T17:20:22.741803141Z","sequence":4,"agentId":"20261202T172015Z-9dca69dd/agent-1","executionId":"x","ids":{"toolCallId":"t1"},"details":{"toolName":"Bash","input":{"command":"ls"},"output":"two words","isError":false}}`
	want := `17:20:22.741 tool.completed agent-1 tool=t1 input={"command":"ls"} isError=false output="two words" toolName=Bash`
	if got := EventText([]byte(line)); got != want {
		t.Errorf("EventText =\n%s\nwant\n%s", got, want)
	}
	for line, want := range map[string]string{
		`{"type":"workflow.log","timestamp":"2026-12-02T17:20:22.741Z","executionId":"x","workflow":"review","details":{"message":"checking out the branch, then running every test suite of the repository"}}`:                                                                                                    "17:20:22.741 log review: checking out the branch, then running every test suite of the repository",
		`{"type":"workflow.phase","timestamp":"2026-12-02T17:20:23Z","executionId":"x","workflow":"fix","details":{"phase":"verify"}}`:                                                                                                                                                                             "17:20:23.000 phase fix: verify",
		`{"type":"workflow.child.started","timestamp":"2026-12-02T17:20:24Z","executionId":"kid-1","workflow":"helper","details":{"parentExecutionId":"top-1","parentWorkflow":"team","runId":"top-1"}}`:                                                                                                           "17:20:24.000 child helper kid-1 started by team top-1",
		`{"type":"workflow.child.completed","timestamp":"2026-12-02T17:20:25.5Z","executionId":"kid-1","workflow":"helper","details":{"parentExecutionId":"top-1","parentWorkflow":"team","runId":"top-1","status":"succeeded","durationMs":1500}}`:                                                                "17:20:25.500 child helper kid-1 succeeded after 1.5s",
		`{"type":"workflow.child.completed","timestamp":"2026-12-02T17:20:25Z","executionId":"kid-2","workflow":"helper","details":{"parentExecutionId":"top-1","parentWorkflow":"team","runId":"top-1","status":"failed","durationMs":12,"error":{"code":"input_validation","message":"text: expected string"}}}`: "17:20:25.000 child helper kid-2 failed after 12ms: input_validation",
		// The phase an execute or a child was started in.
		`{"v":1,"type":"agent.invocation.started","timestamp":"2026-12-02T17:20:26Z","executionId":"x","agentId":"x/agent-2","phase":"review/a b","ids":{"invocationId":"x/agent-2/1"},"details":{"name":"reviewer","promptKind":"text"}}`:                           `17:20:26.000 agent.invocation.started agent-2 phase="review/a b" name=reviewer promptKind=text`,
		`{"v":1,"type":"workflow.phase","timestamp":"2026-12-02T17:20:26Z","executionId":"x","workflow":"fix","phase":"review/verify","details":{"phase":"verify"}}`:                                                                                                 "17:20:26.000 phase fix: review/verify",
		`{"v":1,"type":"workflow.child.started","timestamp":"2026-12-02T17:20:26Z","executionId":"kid-3","workflow":"helper","phase":"draft","details":{"parentExecutionId":"top-1","parentWorkflow":"team","runId":"top-1"}}`:                                       "17:20:26.000 child helper kid-3 started by team top-1 in phase draft",
		`{"v":1,"type":"workflow.child.completed","timestamp":"2026-12-02T17:20:26Z","executionId":"kid-3","workflow":"helper","phase":"draft","details":{"parentExecutionId":"top-1","parentWorkflow":"team","runId":"top-1","status":"succeeded","durationMs":2}}`: "17:20:26.000 child helper kid-3 succeeded after 2ms in phase draft",
	} {
		if got := EventText([]byte(line)); got != want {
			t.Errorf("EventText =\n%s\nwant\n%s", got, want)
		}
	}
	if got := EventText([]byte("not json")); got != "not json" {
		t.Errorf("EventText of a non-event = %q", got)
	}
}

func TestStopSignalsTheRunsProcessAndWaitsForIt(t *testing.T) {
	s := newStore(t)
	sleep := exec.Command("sleep", "600")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	defer sleep.Process.Kill()
	exited := make(chan error, 1)
	go func() { exited <- sleep.Wait() }()
	begin(t, s, "20261202T170000Z-stop0002", "w", sleep.Process.Pid, t0)

	r, err := s.Stop(context.Background(), "20261202T170000Z-stop0002", StopOptions{Poll: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if werr := <-exited; werr == nil || !strings.Contains(werr.Error(), "terminated") {
		t.Errorf("sleep ended with %v, want SIGTERM", werr)
	}
	// sleep writes no final status: the record is reconciled.
	if r.Status != records.StatusCrashed {
		t.Errorf("after Stop: %+v", r)
	}
}

func TestStopLeavesAProcessItCannotConfirmAlone(t *testing.T) {
	s := newStore(t)
	sleep := exec.Command("sleep", "600")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sleep.Process.Kill(); _ = sleep.Wait() }()
	r := begin(t, s, "20261202T170000Z-stop0003", "w", sleep.Process.Pid, t0)
	// A record without the start time (written before it was recorded):
	// the pid alone does not prove the process is the run's.
	inv, err := records.ReadInvocation(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	inv.ProcessStart = 0
	data, _ := json.Marshal(inv)
	if err := os.WriteFile(filepath.Join(r.Dir(), records.InvocationFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = s.Stop(context.Background(), "20261202T170000Z-stop0003", StopOptions{})
	if ce := clierr.As(err); ce.Code != runapi.CodeRunProcessUnconfirmed || ce.Exit != clierr.ExitFailed {
		t.Errorf("Stop = %v, want %s", err, runapi.CodeRunProcessUnconfirmed)
	}
	if alive, err := ownProcess(records.Invocation{PID: sleep.Process.Pid, ProcessStart: mustStart(t, sleep.Process.Pid)}); err != nil || !alive {
		t.Errorf("the unconfirmed process was signalled: alive=%v, %v", alive, err)
	}
}

func mustStart(t *testing.T, pid int) uint64 {
	t.Helper()
	id, err := procid.Of(pid)
	if err != nil {
		t.Fatal(err)
	}
	return id.StartTime
}
