package engine

import (
	"context"
	"encoding/json"
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

// harness is a test environment whose code activity runs for an hour of
// the test clock, while the test sends the run's updates.
type harness struct {
	t   *testing.T
	env *testsuite.TestWorkflowEnvironment

	mu      sync.Mutex
	queues  []string // the task queue of each agent activity, in order
	replies []ExecuteReply
}

func newHarness(t *testing.T, agent func(ctx context.Context, in AgentExecute) (ExecuteReply, error)) *harness {
	var s testsuite.WorkflowTestSuite
	h := &harness{t: t, env: s.NewTestWorkflowEnvironment()}
	h.env.RegisterWorkflowWithOptions(Run, workflow.RegisterOptions{Name: WorkflowRun})
	h.env.RegisterActivityWithOptions(func(context.Context, RunRequest) (RunResult, error) { return RunResult{}, nil }, activity.RegisterOptions{Name: ActivityRunCode})
	h.env.RegisterActivityWithOptions(agent, activity.RegisterOptions{Name: ActivityAgentExecute})
	h.env.RegisterActivityWithOptions(func(context.Context, CloseRun) error { return nil }, activity.RegisterOptions{Name: ActivityCloseRun})
	h.env.OnActivity(ActivityRunCode, mock.Anything, mock.Anything).After(time.Hour).Return(RunResult{ExitCode: 0}, nil)
	return h
}

// noteQueue records the activity's task queue.
func (h *harness) noteQueue(ctx context.Context) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.queues = append(h.queues, activity.GetInfo(ctx).TaskQueue)
}

// execute sends an execute update at the given time of the test clock.
func (h *harness) execute(at time.Duration, req ExecuteRequest) {
	h.env.RegisterDelayedCallback(func() {
		h.env.UpdateWorkflow(UpdateExecute, at.String(), &testsuite.TestUpdateCallback{
			OnAccept: func() {},
			OnReject: func(err error) { h.t.Errorf("update at %s rejected: %v", at, err) },
			OnComplete: func(v any, err error) {
				if err != nil {
					h.t.Errorf("update at %s: %v", at, err)
					return
				}
				h.mu.Lock()
				h.replies = append(h.replies, v.(ExecuteReply))
				h.mu.Unlock()
			},
		}, req)
	}, at)
}

func (h *harness) run() {
	h.env.ExecuteWorkflow(WorkflowRun, RunRequest{AgentQueue: "q.agents"})
	if !h.env.IsWorkflowCompleted() {
		h.t.Fatal("the workflow did not complete")
	}
	if err := h.env.GetWorkflowError(); err != nil {
		h.t.Fatalf("workflow: %v", err)
	}
}

func okReply(queue string) ExecuteReply {
	return ExecuteReply{Result: json.RawMessage(`{"text":"done"}`), Worker: "w1", Queue: queue}
}

func request(call int, place *agentproto.ExecutePlace) ExecuteRequest {
	return ExecuteRequest{Params: json.RawMessage(`{"agentId":"agent-1"}`), Agent: "x/agent-1", Call: call, Place: place}
}

// A retried attempt of the code asks again for an execute that finished:
// the record answers it, and the agent ran once. The journal holds the
// execute's entry, as the SDK would have written it.
func TestAnExecuteOfOnePlaceRunsOnce(t *testing.T) {
	var h *harness
	h = newHarness(t, func(ctx context.Context, in AgentExecute) (ExecuteReply, error) {
		h.noteQueue(ctx)
		return okReply("q.agents@w1"), nil
	})
	place := &agentproto.ExecutePlace{Path: `"wf"`, ConfigID: "writer", Agent: 1, InputSHA256: "abc"}
	h.execute(time.Minute, request(1, place))
	h.execute(2*time.Minute, request(1, place))
	var journal []journalapi.Entry
	h.env.RegisterDelayedCallback(func() {
		v, err := h.env.QueryWorkflow(QueryJournal)
		if err != nil {
			t.Errorf("query: %v", err)
			return
		}
		if err := v.Get(&journal); err != nil {
			t.Errorf("decode: %v", err)
		}
	}, 3*time.Minute)
	h.run()
	if len(h.queues) != 1 {
		t.Errorf("the agent ran %d times (queues %v), want once", len(h.queues), h.queues)
	}
	if len(h.replies) != 2 || string(h.replies[1].Result) != `{"text":"done"}` {
		t.Errorf("replies = %+v, want the same result twice", h.replies)
	}
	if len(journal) != 1 || journal[0].Kind != journalapi.KindExecute || journal[0].Execute.ConfigID != "writer" ||
		journal[0].Execute.Call != 1 || journal[0].InputSHA256 != "abc" || *journal[0].Execute.Text != "done" {
		t.Errorf("journal = %+v, want the execute's entry", journal)
	}
}

// An agent's next execute goes to the worker holding its conversation;
// when that worker is gone (its heartbeat timed out), to any worker.
func TestAnAgentFollowsItsWorkerUntilItIsLost(t *testing.T) {
	var h *harness
	calls := 0
	h = newHarness(t, func(ctx context.Context, in AgentExecute) (ExecuteReply, error) {
		h.noteQueue(ctx)
		calls++
		if calls == 2 {
			return ExecuteReply{}, temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_HEARTBEAT, nil)
		}
		return okReply("q.agents@w1"), nil
	})
	h.execute(time.Minute, request(1, nil))
	h.execute(2*time.Minute, request(2, nil))
	h.run()
	want := []string{"q.agents", "q.agents@w1", "q.agents"}
	if len(h.queues) != len(want) || h.queues[0] != want[0] || h.queues[1] != want[1] || h.queues[2] != want[2] {
		t.Errorf("queues = %v, want %v", h.queues, want)
	}
	if len(h.replies) != 2 || h.replies[1].Error != nil {
		t.Errorf("replies = %+v, want two results", h.replies)
	}
}

// An agent's own error is the workflow code's to handle: it is passed on,
// not retried, and not recorded as finished work.
func TestAnAgentErrorIsPassedOnOnce(t *testing.T) {
	var h *harness
	h = newHarness(t, func(ctx context.Context, in AgentExecute) (ExecuteReply, error) {
		h.noteQueue(ctx)
		return ExecuteReply{Error: &RPCError{Code: agentproto.RPCAgentError, Message: "model unavailable", Data: json.RawMessage(`{"code":"model_unavailable"}`)}, Queue: "q.agents@w1"}, nil
	})
	place := &agentproto.ExecutePlace{Path: `"wf"`, Agent: 1, InputSHA256: "abc"}
	h.execute(time.Minute, request(1, place))
	h.execute(2*time.Minute, request(1, place))
	h.run()
	if len(h.queues) != 2 {
		t.Errorf("the agent ran %d times, want twice (a failed execute runs again)", len(h.queues))
	}
	if len(h.replies) != 2 || h.replies[0].Error == nil || h.replies[0].Error.Message != "model unavailable" {
		t.Errorf("replies = %+v, want the agent's error", h.replies)
	}
}

// An execute whose harness queue nobody was seen polling waits a bounded
// time for a worker; when none takes it, it fails as harness_unavailable,
// as a local run without the harness's CLI does.
func TestAnExecuteNoWorkerTakesIsUnavailable(t *testing.T) {
	var h *harness
	h = newHarness(t, func(ctx context.Context, in AgentExecute) (ExecuteReply, error) {
		h.noteQueue(ctx)
		return ExecuteReply{}, temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START, nil)
	})
	req := request(1, nil)
	req.Queue, req.Harness, req.Unseen = "q.agents.claude-code", "claude-code", true
	h.execute(time.Minute, req)
	h.run()
	if len(h.queues) != 1 || h.queues[0] != "q.agents.claude-code" {
		t.Errorf("queues = %v, want one try on the harness's queue", h.queues)
	}
	if len(h.replies) != 1 || h.replies[0].Error == nil || string(h.replies[0].Error.Data) != `{"code":"harness_unavailable"}` {
		t.Errorf("replies = %+v, want harness_unavailable", h.replies)
	}
}
