package runs

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// timelineEvents are a run of 10 s: setup and planner#x at once, x
// waiting 2 s for an admission slot, a checker failing, then a child
// workflow started in phase review with an agent of its own.
var timelineEvents = []string{
	`{"v":1,"type":"agent.invocation.started","timestamp":"2026-12-02T14:00:00Z","executionId":"top","agentId":"top/a1","ids":{"invocationId":"top/a1/1"},"details":{"name":"setup","promptKind":"text"}}`,
	`{"v":1,"type":"agent.initialization.completed","timestamp":"2026-12-02T14:00:00.1Z","executionId":"top","agentId":"top/a1","ids":{"invocationId":"top/a1/1"},"details":{"status":"completed","harness":"test"}}`,
	`{"v":1,"type":"usage","timestamp":"2026-12-02T14:00:01Z","executionId":"top","agentId":"top/a1","ids":{"invocationId":"top/a1/1"},"details":{"inputTokens":100,"outputTokens":20,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"reasoningOutputTokens":0,"costUsd":0.012,"costProvenance":"reported","model":"test-model"}}`,
	`{"v":1,"type":"agent.invocation.started","timestamp":"2026-12-02T14:00:01Z","executionId":"top","agentId":"top/a2","label":"x","phase":"plan","ids":{"invocationId":"top/a2/1"},"details":{"name":"planner#x","promptKind":"text","promptPreview":"Plan the fix"}}`,
	`{"v":1,"type":"agent.admission.queued","timestamp":"2026-12-02T14:00:01Z","executionId":"top","agentId":"top/a2","label":"x","phase":"plan","ids":{"invocationId":"top/a2/1"},"details":{}}`,
	`{"v":1,"type":"agent.invocation.completed","timestamp":"2026-12-02T14:00:02Z","executionId":"top","agentId":"top/a1","ids":{"invocationId":"top/a1/1"},"details":{"status":"completed"}}`,
	`{"v":1,"type":"agent.invocation.started","timestamp":"2026-12-02T14:00:02Z","executionId":"top","agentId":"top/a3","phase":"plan","ids":{"invocationId":"top/a3/1"},"details":{"name":"checker","promptKind":"text","promptPreview":"Check src/a.go"}}`,
	`{"v":1,"type":"agent.initialization.started","timestamp":"2026-12-02T14:00:03Z","executionId":"top","agentId":"top/a2","label":"x","phase":"plan","ids":{"invocationId":"top/a2/1"},"details":{}}`,
	`{"v":1,"type":"agent.invocation.completed","timestamp":"2026-12-02T14:00:04Z","executionId":"top","agentId":"top/a3","phase":"plan","ids":{"invocationId":"top/a3/1"},"details":{"status":"failed","error":{"message":"no"}}}`,
	`{"v":1,"type":"agent.invocation.completed","timestamp":"2026-12-02T14:00:05Z","executionId":"top","agentId":"top/a2","label":"x","phase":"plan","ids":{"invocationId":"top/a2/1"},"details":{"status":"completed"}}`,
	`{"v":1,"type":"workflow.child.started","timestamp":"2026-12-02T14:00:05Z","executionId":"kid","workflow":"kid","phase":"review","details":{"parentExecutionId":"top","parentWorkflow":"w","runId":"top"}}`,
	`{"v":1,"type":"agent.invocation.started","timestamp":"2026-12-02T14:00:06Z","executionId":"kid","agentId":"kid/b1","ids":{"invocationId":"kid/b1/1"},"details":{"name":"fixer","promptKind":"text"}}`,
	`{"v":1,"type":"model.started","timestamp":"2026-12-02T14:00:06.5Z","executionId":"kid","agentId":"kid/b1","ids":{"invocationId":"kid/b1/1"},"details":{"model":"kid-model"}}`,
	`{"v":1,"type":"agent.invocation.completed","timestamp":"2026-12-02T14:00:08Z","executionId":"kid","agentId":"kid/b1","ids":{"invocationId":"kid/b1/1"},"details":{"status":"completed"}}`,
	`{"v":1,"type":"workflow.child.completed","timestamp":"2026-12-02T14:00:09Z","executionId":"kid","workflow":"kid","phase":"review","details":{"parentExecutionId":"top","parentWorkflow":"w","runId":"top","status":"succeeded","durationMs":4000}}`,
}

func timelineOf(t *testing.T, run Run, lines []string) *Timeline {
	t.Helper()
	x := newTimelineIndex(run)
	if err := EachEvent(writeEvents(t, []byte(strings.Join(lines, "\n"))), x.add); err != nil {
		t.Fatal(err)
	}
	return x.result()
}

var timelineRun = Run{ExecutionID: "top", Workflow: "w", Status: "succeeded",
	StartedAt: time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC), DurationMs: 10000}

// The chart: the run's invocation, its agents at once (x's wait for a slot
// dotted), the checker's failure marked, the child and its agent nested
// under it, each row's facts before its bar.
func TestWriteTimeline(t *testing.T) {
	var b strings.Builder
	WriteTimeline(&b, timelineOf(t, timelineRun, timelineEvents), 120)
	want := `timeline  top  (= running, . waiting for admission, x failed)
NAME                       HARNESS/MODEL    PHASE   START  DURATION  TOKENS  COST     STATUS      0s   2.5s 5s      10s
w                          workflow                 +0s    10s       120     $0.0120  succeeded  |=====================|
  setup                    test/test-model          +0s    2s        120     $0.0120  completed  |=====                |
  x                                         plan    +1s    4s        -       -        completed  |  .....====          |
  checker: Check src/a.go                   plan    +2s    2s        -       -        failed     |    ====x            |
  kid                      workflow         review  +5s    4s        -       -        succeeded  |          =========  |
    fixer                  kid-model        review  +6s    2s        -       -        completed  |            =====    |
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// The rows as data: offsets from the run's start, the admission wait, the
// failure, a child's depth and phase, and usage of the agent and of the
// invocation that created it.
func TestTimelineRows(t *testing.T) {
	tl := timelineOf(t, timelineRun, timelineEvents)
	type row struct {
		kind, id, name, phase, status string
		depth                         int
		start, end, queued            int64
	}
	var got []row
	for _, r := range tl.Rows {
		got = append(got, row{r.Kind, r.ID, r.Name, r.Phase, r.Status, r.Depth, r.StartMs, r.EndMs, r.QueuedMs})
	}
	want := []row{
		{RowInvocation, "top", "w", "", "succeeded", 0, 0, 10000, 0},
		{RowAgent, "top/a1", "setup", "", "completed", 1, 0, 2000, 0},
		{RowAgent, "top/a2", "x", "plan", "completed", 1, 1000, 5000, 2000},
		{RowAgent, "top/a3", "checker", "plan", "failed", 1, 2000, 4000, 0},
		{RowInvocation, "kid", "kid", "review", "succeeded", 1, 5000, 9000, 0},
		{RowAgent, "kid/b1", "fixer", "review", "completed", 2, 6000, 8000, 0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows\n%+v\nwant\n%+v", got, want)
	}
	if f := tl.Rows[3].FailedAtMs; !reflect.DeepEqual(f, []int64{4000}) {
		t.Errorf("the checker failed at %v, want [4000]", f)
	}
	if u := tl.Rows[0].Usage; u == nil || u.Tokens.Total() != 120 {
		t.Errorf("the run's invocation's usage %+v, want its setup's 120 tokens", u)
	}
	if r := tl.Rows[1]; r.Harness != "test" || r.Model != "test-model" {
		t.Errorf("setup's harness %q and model %q", r.Harness, r.Model)
	}
}

// A run still running: its open execute, still waiting for a slot, and
// its invocation reach to its last event.
func TestTimelineOfARunningRun(t *testing.T) {
	run := timelineRun
	run.Status, run.DurationMs = statusRunning, 0
	tl := timelineOf(t, run, timelineEvents[:5])
	if tl.DurationMs != 1000 {
		t.Errorf("duration %d ms, want the last event's 1000", tl.DurationMs)
	}
	x := tl.Rows[2]
	if x.Status != statusRunning || x.EndMs != 1000 || len(x.Queued) != 1 || tl.Rows[0].EndMs != 1000 {
		t.Errorf("rows %+v", tl.Rows)
	}
	var b strings.Builder
	WriteTimeline(&b, tl, 0)
	if !strings.Contains(b.String(), "running  |"+strings.Repeat("=", minBarWidth)+"|") {
		t.Errorf("the run's own row does not span the chart:\n%s", b.String())
	}
}

// A run that built its workflow first: its record started 3 s before its
// first event, and the chart starts at that event, not at an empty stretch.
func TestTimelineStartsAtTheFirstEvent(t *testing.T) {
	built := timelineRun
	built.StartedAt, built.DurationMs = built.StartedAt.Add(-3*time.Second), 13000
	want, got := timelineOf(t, timelineRun, timelineEvents), timelineOf(t, built, timelineEvents)
	if got.BuildMs != 3000 || !got.StartedAt.Equal(timelineRun.StartedAt) {
		t.Errorf("build %d ms, start %s; want 3000 ms and the first event's", got.BuildMs, got.StartedAt)
	}
	got.BuildMs = 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("timeline\n%+v\nwant the one without a build\n%+v", got, want)
	}
}

// An event whose timestamp does not parse does not move the chart's start
// back to the run's record: the bounds stay those of the events that
// parse.
func TestTimelineIgnoresAnUnparsableTimestampForItsBounds(t *testing.T) {
	built := timelineRun
	built.StartedAt, built.DurationMs = built.StartedAt.Add(-3*time.Second), 13000
	lines := append([]string{strings.Replace(timelineEvents[1], `"2026-12-02T14:00:00.1Z"`, `"soon"`, 1)}, timelineEvents...)
	if got := timelineOf(t, built, lines); got.BuildMs != 3000 || got.DurationMs != 10000 {
		t.Errorf("build %d ms, duration %d ms; want 3000 and 10000", got.BuildMs, got.DurationMs)
	}
}

// A row names what its agent was asked: its label, the first line of its
// first prompt; a failed agent's row carries its error.
func TestTimelineRowsSayWhatTheirAgentWasAsked(t *testing.T) {
	tl := timelineOf(t, timelineRun, timelineEvents)
	x, checker := tl.Rows[2], tl.Rows[3]
	if x.Agent != "planner" || x.Label != "x" || x.Prompt != "Plan the fix" || checker.Label != "" || checker.Prompt != "Check src/a.go" {
		t.Errorf("x: label %q, prompt %q; checker: label %q, prompt %q", x.Label, x.Prompt, checker.Label, checker.Prompt)
	}
	if checker.Error == nil || checker.Error.Message != "no" || x.Error != nil {
		t.Errorf("checker's error %+v, x's %+v; want the checker's only", checker.Error, x.Error)
	}
}

// A timeline built a line at a time is, after every line, the timeline of
// the lines so far, and taking one does not change the next (a page
// following a run takes one after every few lines).
func TestTimelineBuilderAgreesAtEveryLine(t *testing.T) {
	run := timelineRun
	run.Status, run.DurationMs = statusRunning, 0
	b := NewTimelineBuilder(run)
	for i, line := range timelineEvents {
		b.Add([]byte(line))
		b.Add([]byte("not an event"))
		got, again := b.Timeline(), b.Timeline()
		if want := timelineOf(t, run, timelineEvents[:i+1]); !reflect.DeepEqual(got, want) || !reflect.DeepEqual(again, want) {
			t.Fatalf("after line %d the builder says\n%+v\nthen\n%+v\nwant\n%+v", i+1, got, again, want)
		}
	}
}
