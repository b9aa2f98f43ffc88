package engine

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/journalapi"
)

// executeEnv is a test environment of one execute workflow of run "r".
type executeEnv struct {
	t   *testing.T
	env *testsuite.TestWorkflowEnvironment

	mu     sync.Mutex
	queues []string // the task queue of each agent activity, in order
}

// newExecuteEnv registers the execute workflow with agent as its activity.
func newExecuteEnv(t *testing.T, agent func(ctx context.Context, in AgentExecute) (ExecuteReply, error)) *executeEnv {
	var s testsuite.WorkflowTestSuite
	x := &executeEnv{t: t, env: s.NewTestWorkflowEnvironment()}
	x.env.RegisterWorkflowWithOptions(Execute, workflow.RegisterOptions{Name: WorkflowExecute})
	x.env.RegisterActivityWithOptions(func(ctx context.Context, in AgentExecute) (ExecuteReply, error) {
		x.mu.Lock()
		x.queues = append(x.queues, activity.GetInfo(ctx).TaskQueue)
		x.mu.Unlock()
		return agent(ctx, in)
	}, activity.RegisterOptions{Name: ActivityAgentExecute})
	return x
}

// run executes in and returns the workflow's reply.
func (x *executeEnv) run(in AgentExecute) ExecuteReply {
	in.RunID = "r"
	x.env.ExecuteWorkflow(WorkflowExecute, in)
	if !x.env.IsWorkflowCompleted() {
		x.t.Fatal("the execute workflow did not complete")
	}
	if err := x.env.GetWorkflowError(); err != nil {
		x.t.Fatalf("execute workflow: %v", err)
	}
	var reply ExecuteReply
	if err := x.env.GetWorkflowResult(&reply); err != nil {
		x.t.Fatal(err)
	}
	x.env.AssertExpectations(x.t)
	return reply
}

func okReply(queue string) ExecuteReply {
	return ExecuteReply{Result: json.RawMessage(`{"text":"done"}`), Worker: "w1", Queue: queue}
}

func request(call int) ExecuteRequest {
	return ExecuteRequest{Params: json.RawMessage(`{"agentId":"agent-1"}`), Agent: "x/agent-1", Call: call, Queue: "q.agents"}
}

// An execute runs its agent once, on its queue, and returns the host's
// reply.
func TestAnExecuteRunsItsAgentOnce(t *testing.T) {
	x := newExecuteEnv(t, func(ctx context.Context, in AgentExecute) (ExecuteReply, error) {
		return okReply("q.agents@w1"), nil
	})
	reply := x.run(AgentExecute{Request: request(1)})
	if !slices.Equal(x.queues, []string{"q.agents"}) {
		t.Errorf("queues = %v, want one activity on the execute's queue", x.queues)
	}
	if string(reply.Result) != `{"text":"done"}` || reply.Queue != "q.agents@w1" {
		t.Errorf("reply = %+v, want the host's result", reply)
	}
}

// An agent's next execute goes to the worker holding its conversation;
// when that worker is gone (its heartbeat timed out), to any worker.
func TestAnAgentFollowsItsWorkerUntilItIsLost(t *testing.T) {
	x := newExecuteEnv(t, func(ctx context.Context, in AgentExecute) (ExecuteReply, error) {
		if activity.GetInfo(ctx).TaskQueue == "q.agents@w1" {
			return ExecuteReply{}, temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_HEARTBEAT, nil)
		}
		return okReply("q.agents@w2"), nil
	})
	reply := x.run(AgentExecute{Request: request(2), Sticky: "q.agents@w1"})
	if want := []string{"q.agents@w1", "q.agents"}; !slices.Equal(x.queues, want) {
		t.Errorf("queues = %v, want %v", x.queues, want)
	}
	if reply.Error != nil || reply.Queue != "q.agents@w2" {
		t.Errorf("reply = %+v, want the result of the worker that took it over", reply)
	}
}

// An agent's own error is the workflow code's to handle: it is passed on,
// not retried.
func TestAnAgentErrorIsPassedOnOnce(t *testing.T) {
	x := newExecuteEnv(t, func(ctx context.Context, in AgentExecute) (ExecuteReply, error) {
		return ExecuteReply{Error: &RPCError{Code: agentproto.RPCAgentError, Message: "model unavailable", Data: json.RawMessage(`{"code":"model_unavailable"}`)}, Queue: "q.agents@w1"}, nil
	})
	reply := x.run(AgentExecute{Request: request(1)})
	if len(x.queues) != 1 {
		t.Errorf("the agent ran %d times, want once", len(x.queues))
	}
	if reply.Error == nil || reply.Error.Message != "model unavailable" {
		t.Errorf("reply = %+v, want the agent's error", reply)
	}
}

// An execute whose harness queue nobody was seen polling waits a bounded
// time for a worker; when none takes it, it fails as harness_unavailable,
// as a local run without the harness's CLI does.
func TestAnExecuteNoWorkerTakesIsUnavailable(t *testing.T) {
	x := newExecuteEnv(t, func(ctx context.Context, in AgentExecute) (ExecuteReply, error) {
		return ExecuteReply{}, temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START, nil)
	})
	req := request(1)
	req.Queue, req.Harness, req.Unseen = "q.agents.claude-code", "claude-code", true
	reply := x.run(AgentExecute{Request: req})
	if !slices.Equal(x.queues, []string{"q.agents.claude-code"}) {
		t.Errorf("queues = %v, want one try on the harness's queue", x.queues)
	}
	if reply.Error == nil || string(reply.Error.Data) != `{"code":"harness_unavailable"}` {
		t.Errorf("reply = %+v, want harness_unavailable", reply)
	}
}

// A worker that gives an execute up (it stops, or Temporal no longer
// counts its attempt) leaves it to another worker, as one that died does;
// on a harness queue nobody was seen polling, too: the worker that took it
// shows the harness can run, so the execute is not unavailable.
func TestAnExecuteAWorkerGaveUpStartsOverElsewhere(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
	}{
		{"given up", WorkerLostError("worker w1 gave up agent \"a\" (worker is now shutdown)")},
		{"died after taking it", temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_HEARTBEAT, nil)},
	} {
		t.Run(c.name, func(t *testing.T) {
			tries := 0
			x := newExecuteEnv(t, func(ctx context.Context, in AgentExecute) (ExecuteReply, error) {
				if tries++; tries == 1 {
					return ExecuteReply{}, c.err
				}
				return okReply("q.agents@w2"), nil
			})
			req := request(1)
			req.Queue, req.Harness, req.Unseen = "q.agents.claude-code", "claude-code", true
			reply := x.run(AgentExecute{Request: req})
			if want := []string{"q.agents.claude-code", "q.agents.claude-code"}; !slices.Equal(x.queues, want) {
				t.Errorf("queues = %v, want %v", x.queues, want)
			}
			if reply.Error != nil || reply.Queue != "q.agents@w2" {
				t.Errorf("reply = %+v, want the result of the worker that took it over", reply)
			}
		})
	}
}

// The same execute ID names the same execute for every attempt of the
// code, and another place or call another one.
func TestExecuteIDIsTheJournalKey(t *testing.T) {
	place := &agentproto.ExecutePlace{Path: `"wf"`, ConfigID: "writer", Agent: 1, InputSHA256: "abc"}
	other := *place
	other.InputSHA256 = "abd"
	a, b := ExecuteID("run-1", place, 1), ExecuteID("run-1", &agentproto.ExecutePlace{Path: `"wf"`, ConfigID: "writer", Agent: 1, InputSHA256: "abc"}, 1)
	if a != b {
		t.Errorf("ExecuteID of one place: %q and %q", a, b)
	}
	for _, id := range []string{ExecuteID("run-1", place, 2), ExecuteID("run-1", &other, 1), ExecuteID("run-2", place, 1)} {
		if id == a {
			t.Errorf("ExecuteID %q names two executes", id)
		}
	}
}

// runEnv is a test environment of a run whose code activity runs for an
// hour of the test clock, while the test sends the run's signals.
type runEnv struct {
	t   *testing.T
	env *testsuite.TestWorkflowEnvironment

	mu        sync.Mutex
	closed    []string // queues told to close the run's host
	cancelled []string // execute workflows cancelled
}

func newRunEnv(t *testing.T) *runEnv {
	var s testsuite.WorkflowTestSuite
	r := &runEnv{t: t, env: s.NewTestWorkflowEnvironment()}
	r.env.RegisterWorkflowWithOptions(Run, workflow.RegisterOptions{Name: WorkflowRun})
	r.env.RegisterActivityWithOptions(func(context.Context, RunRequest) (RunResult, error) { return RunResult{}, nil }, activity.RegisterOptions{Name: ActivityRunCode})
	r.env.RegisterActivityWithOptions(func(ctx context.Context, _ CloseRun) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.closed = append(r.closed, activity.GetInfo(ctx).TaskQueue)
		return nil
	}, activity.RegisterOptions{Name: ActivityCloseRun})
	r.env.OnActivity(ActivityRunCode, mock.Anything, mock.Anything).After(time.Hour).Return(RunResult{ExitCode: 0}, nil)
	r.env.OnRequestCancelExternalWorkflow(mock.Anything, mock.Anything, "").Return(func(_, id, _ string) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.cancelled = append(r.cancelled, id)
		return nil
	}).Maybe()
	return r
}

func (r *runEnv) signal(at time.Duration, name string, arg any) {
	r.env.RegisterDelayedCallback(func() { r.env.SignalWorkflow(name, arg) }, at)
}

func (r *runEnv) journalAt(at time.Duration) *[]journalapi.Entry {
	var journal []journalapi.Entry
	r.env.RegisterDelayedCallback(func() {
		v, err := r.env.QueryWorkflow(QueryJournal)
		if err != nil {
			r.t.Errorf("query: %v", err)
			return
		}
		if err := v.Get(&journal); err != nil {
			r.t.Errorf("decode: %v", err)
		}
	}, at)
	return &journal
}

func (r *runEnv) run() {
	r.env.ExecuteWorkflow(WorkflowRun, RunRequest{AgentQueue: "q.agents"})
	if !r.env.IsWorkflowCompleted() {
		r.t.Fatal("the workflow did not complete")
	}
	if err := r.env.GetWorkflowError(); err != nil {
		r.t.Fatalf("workflow: %v", err)
	}
}

func executeJournalEntry(configID string) *journalapi.Entry {
	text := "done"
	return &journalapi.Entry{V: journalapi.Version, Kind: journalapi.KindExecute, Path: `"wf"`, InputSHA256: "abc",
		Execute: &journalapi.Execute{ConfigID: configID, Agent: 1, Call: 1, Text: &text}}
}

// The journal a retried attempt of the code replays holds the header, the
// code's own entries and each finished execute's entry once, though a
// retried attempt that attached to a finished execute signals its end
// again.
func TestTheJournalHoldsEachFinishedExecuteOnce(t *testing.T) {
	r := newRunEnv(t)
	r.signal(time.Minute, SignalJournal, journalapi.Entry{V: journalapi.Version, Kind: journalapi.KindHeader, Header: &journalapi.Header{ExecutionID: "x"}})
	r.signal(2*time.Minute, SignalExecuteStarted, ExecuteStarted{ID: "e1"})
	r.signal(3*time.Minute, SignalExecuteFinished, ExecuteFinished{ID: "e1", Queue: "q.agents@w1", Entry: executeJournalEntry("writer")})
	r.signal(4*time.Minute, SignalJournal, journalapi.Entry{V: journalapi.Version, Kind: journalapi.KindHeader, Header: &journalapi.Header{ExecutionID: "y"}})
	r.signal(5*time.Minute, SignalExecuteFinished, ExecuteFinished{ID: "e1", Queue: "q.agents@w1", Entry: executeJournalEntry("writer")})
	journal := r.journalAt(6 * time.Minute)
	r.run()
	j := *journal
	if len(j) != 2 || j[0].Kind != journalapi.KindHeader || j[0].Header.ExecutionID != "x" || j[1].Kind != journalapi.KindExecute || j[1].Execute.ConfigID != "writer" {
		t.Errorf("journal = %+v, want the first header and the execute's entry once", j)
	}
	if len(r.cancelled) != 0 {
		t.Errorf("cancelled %v, want none (the execute finished)", r.cancelled)
	}
	if !slices.Equal(r.closed, []string{"q.agents@w1"}) {
		t.Errorf("closed hosts on %v, want the worker that ran the execute", r.closed)
	}
}

// An execute still running when the run ends (a lost attempt of the code
// asked for it, and the next one did not) is cancelled; a finished one is
// not, and an execute that failed is not journalled.
func TestARunCancelsItsExecutesStillRunning(t *testing.T) {
	r := newRunEnv(t)
	r.signal(time.Minute, SignalExecuteStarted, ExecuteStarted{ID: "e1"})
	r.signal(time.Minute, SignalExecuteStarted, ExecuteStarted{ID: "e2"})
	r.signal(time.Minute, SignalExecuteStarted, ExecuteStarted{ID: "e3"})
	r.signal(2*time.Minute, SignalExecuteFinished, ExecuteFinished{ID: "e2", Queue: "q.agents@w2"})
	journal := r.journalAt(3 * time.Minute)
	r.run()
	if len(*journal) != 0 {
		t.Errorf("journal = %+v, want nothing", *journal)
	}
	slices.Sort(r.cancelled)
	if !slices.Equal(r.cancelled, []string{"e1", "e3"}) {
		t.Errorf("cancelled %v, want e1 and e3", r.cancelled)
	}
}

// A cancelled run (Ctrl-C on the submitting terminal) cancels its executes
// (at once, while its code is being interrupted), and each once.
func TestACancelledRunCancelsItsExecutes(t *testing.T) {
	r := newRunEnv(t)
	r.signal(time.Minute, SignalExecuteStarted, ExecuteStarted{ID: "e1"})
	r.env.RegisterDelayedCallback(r.env.CancelWorkflow, 2*time.Minute)
	r.env.ExecuteWorkflow(WorkflowRun, RunRequest{AgentQueue: "q.agents"})
	if !r.env.IsWorkflowCompleted() {
		t.Fatal("the workflow did not complete")
	}
	if !slices.Equal(r.cancelled, []string{"e1"}) {
		t.Errorf("cancelled %v, want e1 once", r.cancelled)
	}
}

// One record signal carries starts, journal entries and ends: the journal
// holds the header, the entries and each finished execute's entry once,
// an execute started and not finished is cancelled when the run ends, and
// an end that arrived before its start leaves its execute finished.
func TestARecordSignalKeepsTheJournalAndTheExecutes(t *testing.T) {
	r := newRunEnv(t)
	header := journalapi.Entry{V: journalapi.Version, Kind: journalapi.KindHeader, Header: &journalapi.Header{ExecutionID: "x"}}
	r.signal(time.Minute, SignalRecord, Record{
		Started: []ExecuteStarted{{ID: "e1"}, {ID: "e2"}},
		Journal: []journalapi.Entry{header},
	})
	r.signal(2*time.Minute, SignalRecord, Record{
		Finished: []ExecuteFinished{{ID: "e1", Queue: "q.agents@w1", Entry: executeJournalEntry("writer")}, {ID: "e3", Queue: "q.agents@w1", Entry: executeJournalEntry("reviewer")}},
	})
	r.signal(3*time.Minute, SignalRecord, Record{
		Started:  []ExecuteStarted{{ID: "e3"}},
		Finished: []ExecuteFinished{{ID: "e1", Queue: "q.agents@w1", Entry: executeJournalEntry("writer")}},
	})
	journal := r.journalAt(4 * time.Minute)
	r.run()
	j := *journal
	if len(j) != 3 || j[0].Kind != journalapi.KindHeader || j[1].Execute.ConfigID != "writer" || j[2].Execute.ConfigID != "reviewer" {
		t.Errorf("journal = %+v, want the header, then the writer's and the reviewer's entries once", j)
	}
	if !slices.Equal(r.cancelled, []string{"e2"}) {
		t.Errorf("cancelled %v, want e2 alone (e1 and e3 finished)", r.cancelled)
	}
	if !slices.Equal(r.closed, []string{"q.agents@w1"}) {
		t.Errorf("closed hosts on %v, want the worker that ran the executes", r.closed)
	}
}

// A replayed entry reaches the run's journal once: the copy a resumed run's
// replay makes of the old run's execute is kept (the run can be resumed in
// its turn), and a retried attempt's copies of entries the journal holds
// are not kept again. An entry that is not replayed is kept as it comes.
func TestAReplayedEntryIsKeptOnce(t *testing.T) {
	r := newRunEnv(t)
	header := journalapi.Entry{V: journalapi.Version, Kind: journalapi.KindHeader, Header: &journalapi.Header{ExecutionID: "x"}}
	replayed := *executeJournalEntry("writer")
	replayed.Replayed = true
	r.signal(time.Minute, SignalRecord, Record{Journal: []journalapi.Entry{header, replayed}})
	r.signal(2*time.Minute, SignalRecord, Record{
		Journal:  []journalapi.Entry{replayed},
		Finished: []ExecuteFinished{{ID: "e1", Queue: "q.agents@w1", Entry: executeJournalEntry("reviewer")}},
	})
	r.signal(3*time.Minute, SignalRecord, Record{Journal: []journalapi.Entry{replayed, func() journalapi.Entry { e := *executeJournalEntry("reviewer"); e.Replayed = true; return e }()}})
	journal := r.journalAt(4 * time.Minute)
	r.run()
	j := *journal
	if len(j) != 3 || !j[1].Replayed || j[1].Execute.ConfigID != "writer" || j[2].Replayed || j[2].Execute.ConfigID != "reviewer" {
		t.Errorf("journal = %+v, want the header, the writer's replayed entry and the reviewer's once", j)
	}
}

// A run's end waits for its workers to close their hosts, but not for a
// worker that is gone: its close is never taken, and the run ends after
// closeWait instead of the close's minute.
func TestARunEndsWithoutAWorkerThatIsGone(t *testing.T) {
	r := newRunEnv(t)
	r.env.OnActivity(ActivityCloseRun, mock.Anything, mock.Anything).After(time.Hour).Return(nil)
	r.signal(time.Minute, SignalRecord, Record{
		Started:  []ExecuteStarted{{ID: "e1"}},
		Finished: []ExecuteFinished{{ID: "e1", Queue: "q.agents@gone", Entry: executeJournalEntry("writer")}},
	})
	start := r.env.Now()
	r.run()
	// The code's activity takes an hour of the test clock; the close adds
	// closeWait, not the close activity's hour.
	if took := r.env.Now().Sub(start); took < time.Hour+closeWait || took >= time.Hour+closeWait+time.Minute {
		t.Fatalf("the run took %s of the test clock, want an hour and %s", took, closeWait)
	}
}
