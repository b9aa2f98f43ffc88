package host

import (
	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapters/test"
)

// refuseRealHarness refuses an agent of a test case (testCase names it;
// "" outside a test case) whose resolved configuration does not put it on
// the test harness: the case's overrides did not reach it (a child run
// without inherited overrides, an agent created without a configId), and
// running it would start a real harness and spend tokens. It is called
// before anything of the agent exists (worktree, adapter, process).
func refuseRealHarness(testCase string, cfg agentproto.AgentConfig, workflow, agent string) error {
	if testCase == "" || (cfg.Harness != nil && *cfg.Harness == test.Harness) {
		return nil
	}
	harness := "chosen from its models"
	if cfg.Harness != nil {
		harness = *cfg.Harness
	}
	return agentproto.Errorf(agentproto.CodeUnscriptedAgent,
		"test case %s: agent %q of workflow %q would run on a real harness (%s), which the case does not allow: "+
			"script it (a configId the case's scripts name, in a workflow the case's overrides reach: createChild({overrides: \"inherit\"})), "+
			"or set allowRealHarness: true on the case", testCase, agent, workflow, harness).
		WithDetails(map[string]any{"testCase": testCase, "workflow": workflow, "agent": agent, "harness": harness})
}
