package host

import (
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// In a test case that does not allow real harnesses, only an agent on the
// test harness passes; one on another harness, or with no harness (chosen
// from its models), is refused naming the case, workflow, agent and
// harness. Outside a test case nothing is refused.
func TestRefuseRealHarness(t *testing.T) {
	harness := func(name string) agentproto.AgentConfig { return agentproto.AgentConfig{Harness: &name} }
	if err := refuseRealHarness(`"wf / c" (tests/cases.yaml)`, harness("test"), "wf", "critic"); err != nil {
		t.Errorf("test harness: %v", err)
	}
	if err := refuseRealHarness("", harness("codex"), "wf", "critic"); err != nil {
		t.Errorf("outside a test case: %v", err)
	}
	for _, c := range []struct {
		config agentproto.AgentConfig
		named  string
	}{{harness("codex"), "codex"}, {agentproto.AgentConfig{}, "chosen from its models"}} {
		err := refuseRealHarness(`"wf / c" (tests/cases.yaml)`, c.config, "child", "agent #2")
		want := `test case "wf / c" (tests/cases.yaml): agent "agent #2" of workflow "child" would run on a real harness (` + c.named + `)`
		if err == nil || agentproto.CodeOf(err) != agentproto.CodeUnscriptedAgent || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v", c.named, err)
		}
	}
}
