package runs

import (
	"reflect"
	"strings"
	"testing"
)

// A run's agents grouped by phase: groups in the order of their first
// execute, agents outside any phase in a group of their own, an agent used
// in two phases in both, concurrent executes of one phase each ended by its
// own invocation, and a child's agents under the phase its parent started
// it in.
func TestPhasesGroupAgentsInOrderOfFirstStart(t *testing.T) {
	const at = `"timestamp":"2026-12-02T14:00:0`
	lines := []string{
		`{"v":1,"type":"agent.invocation.started",` + at + `0Z","executionId":"top","agentId":"top/a1","ids":{"invocationId":"top/a1/1"},"details":{"name":"setup","promptKind":"text"}}`,
		`{"v":1,"type":"agent.invocation.completed",` + at + `1Z","executionId":"top","agentId":"top/a1","ids":{"invocationId":"top/a1/1"},"details":{"status":"completed"}}`,
		`{"v":1,"type":"workflow.phase",` + at + `1Z","executionId":"top","workflow":"w","phase":"plan","details":{"phase":"plan"}}`,
		`{"v":1,"type":"agent.invocation.started",` + at + `2Z","executionId":"top","agentId":"top/a2","label":"x","phase":"plan","ids":{"invocationId":"top/a2/1"},"details":{"name":"planner#x","promptKind":"text"}}`,
		`{"v":1,"type":"agent.invocation.started",` + at + `2Z","executionId":"top","agentId":"top/a3","phase":"plan","ids":{"invocationId":"top/a3/1"},"details":{"name":"planner","promptKind":"text"}}`,
		`{"v":1,"type":"agent.invocation.completed",` + at + `5Z","executionId":"top","agentId":"top/a3","phase":"plan","ids":{"invocationId":"top/a3/1"},"details":{"status":"failed","error":{"message":"x"}}}`,
		`{"v":1,"type":"agent.invocation.completed",` + at + `4Z","executionId":"top","agentId":"top/a2","phase":"plan","ids":{"invocationId":"top/a2/1"},"details":{"status":"completed"}}`,
		`{"v":1,"type":"workflow.child.started",` + at + `5Z","executionId":"kid","workflow":"kid","phase":"review","details":{"parentExecutionId":"top","parentWorkflow":"w","runId":"top"}}`,
		`{"v":1,"type":"agent.invocation.started",` + at + `6Z","executionId":"kid","agentId":"kid/b1","phase":"fix","ids":{"invocationId":"kid/b1/1"},"details":{"name":"fixer","promptKind":"text"}}`,
		`{"v":1,"type":"agent.invocation.started",` + at + `6Z","executionId":"top","agentId":"top/a1","ids":{"invocationId":"top/a1/2"},"details":{"name":"setup","promptKind":"text"}}`,
		`{"v":1,"type":"agent.invocation.started",` + at + `7Z","executionId":"top","agentId":"top/a2","label":"x","phase":"review","ids":{"invocationId":"top/a2/2"},"details":{"name":"planner#x","promptKind":"text"}}`,
	}
	x := newPhaseIndex()
	if _, err := countEvents(writeEvents(t, []byte(strings.Join(lines, "\n"))), &UsageRollup{}, x); err != nil {
		t.Fatal(err)
	}
	type row struct {
		phase, agent, workflow, status string
		executes, failed               int
		busyMs                         int64
	}
	var got []row
	for _, g := range x.result("top", "w") {
		for _, a := range g.Agents {
			got = append(got, row{g.Phase, a.AgentID, a.Workflow, a.Status, a.Executes, a.Failed, a.BusyMs})
		}
	}
	want := []row{
		{"", "top/a1", "w", "running", 2, 0, 1000},
		{"plan", "top/a2", "w", "completed", 1, 0, 2000},
		{"plan", "top/a3", "w", "failed", 1, 1, 3000},
		{"review/fix", "kid/b1", "kid", "running", 1, 0, 0},
		{"review", "top/a2", "w", "running", 1, 0, 0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows\n%+v\nwant\n%+v", got, want)
	}
	if x.result("top", "w")[1].Agents[0].Label != "x" || x.result("top", "w")[1].Agents[0].Name != "planner#x" {
		t.Errorf("the planner's row: %+v", x.result("top", "w")[1].Agents[0])
	}
}

// A run whose agents never executed has no phases: show's JSON leaves
// them out rather than listing an empty group.
func TestPhasesOfARunWithoutAgents(t *testing.T) {
	x := newPhaseIndex()
	line := `{"v":1,"type":"workflow.phase","timestamp":"2026-12-02T14:00:00Z","executionId":"top","workflow":"w","phase":"plan","details":{"phase":"plan"}}`
	if _, err := countEvents(writeEvents(t, []byte(line)), &UsageRollup{}, x); err != nil {
		t.Fatal(err)
	}
	if got := x.result("top", "w"); got != nil {
		t.Errorf("phases %+v, want none", got)
	}
}

// Show's text: a section per phase, in order, each agent a line; the
// agents of no phase under "(no phase)".
func TestWritePhases(t *testing.T) {
	var b strings.Builder
	WritePhases(&b, []PhaseGroup{
		{Phase: "plan", Agents: []PhaseAgent{{AgentID: "top/a2", Name: "planner#x", Workflow: "w", Status: "completed", Executes: 2, Failed: 1, BusyMs: 2500, StartedAt: "2026-12-02T14:00:02Z"}}},
		{Phase: "", Agents: []PhaseAgent{{AgentID: "top/a1", Workflow: "w", Status: "running", Executes: 1, StartedAt: "bad"}}},
	})
	want := "agents    by phase, in order of first start\n" +
		"  phase plan\n" +
		"    planner#x  w  completed  2 execute(s), 1 failed  2.5s  started " + localClock("2026-12-02T14:00:02Z") + "\n" +
		"  (no phase)\n" +
		"    a1  w  running  1 execute(s)  0s  started bad\n" // each section aligned on its own
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	WritePhases(&b, nil)
	if b.String() != "" {
		t.Errorf("a run without agents writes %q", b.String())
	}
}
