package runs

import (
	"strings"
	"testing"
)

// An agent's row says how far its last plan went (each plan.updated is
// the whole plan), and runs logs reads a plan as one line.
func TestAgentsLastPlanIsShown(t *testing.T) {
	const at = `"timestamp":"2026-12-02T14:00:0`
	plan := func(s string, entries string) string {
		return `{"v":1,"type":"plan.updated",` + at + s + `Z","executionId":"top","agentId":"top/a1","ids":{"invocationId":"top/a1/1"},"details":{"entries":[` + entries + `]}}`
	}
	lines := []string{
		`{"v":1,"type":"agent.invocation.started",` + at + `0Z","executionId":"top","agentId":"top/a1","ids":{"invocationId":"top/a1/1"},"details":{"name":"gem","promptKind":"text"}}`,
		plan("1", `{"content":"read the file","status":"in_progress"},{"content":"fix it","status":"pending"}`),
		plan("2", `{"content":"read the file","status":"completed"},{"content":"fix   the\nbug","status":"in_progress"},{"content":"test","status":"pending"}`),
		`{"v":1,"type":"agent.invocation.started",` + at + `3Z","executionId":"top","agentId":"top/a2","ids":{"invocationId":"top/a2/1"},"details":{"name":"plain","promptKind":"text"}}`,
	}
	x := newPhaseIndex()
	if _, err := countEvents(writeEvents(t, []byte(strings.Join(lines, "\n"))), &UsageRollup{}, x); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	WritePhases(&b, x.result("top", "w"))
	out := strings.Split(b.String(), "\n")
	if want := "plan 1 of 3 done, now: fix the bug"; !strings.HasSuffix(out[2], want) {
		t.Errorf("gem's row %q, want it to end with %q", out[2], want)
	}
	if strings.Contains(out[3], "plan") {
		t.Errorf("an agent without a plan says %q", out[3])
	}
	if got, want := EventText([]byte(lines[2])), "14:00:02.000 plan a1: 1 of 3 done, now: fix the bug"; got != want {
		t.Errorf("EventText = %q, want %q", got, want)
	}
	done := plan("4", `{"content":"a","status":"completed"},{"content":"b","status":"completed"}`)
	if got, want := EventText([]byte(done)), "14:00:04.000 plan a1: 2 of 2 done"; got != want {
		t.Errorf("EventText = %q, want %q", got, want)
	}
}
