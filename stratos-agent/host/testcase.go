package host

import (
	"io"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapters/test"
	"github.com/stratoscli/stratos/stratos-agent/decision"
)

// refuseRealHarness refuses an agent of a test case (nil outside one)
// that does not allow real harnesses when the agent's resolved
// configuration does not put it on the test harness: the case's overrides
// did not reach it (a child run without inherited overrides, an agent
// created without a configId), and running it would start a real harness
// and spend tokens. It is called before anything of the agent exists
// (worktree, adapter, process).
func refuseRealHarness(testCase *agentproto.TestCase, cfg agentproto.AgentConfig, workflow, agent string) error {
	if testCase == nil || testCase.AllowRealHarness || (cfg.Harness != nil && *cfg.Harness == test.Harness) {
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
		WithDetails(map[string]any{"testCase": testCase.Name, "workflow": workflow, "agent": agent, "harness": harness})
}

// worktreeToolStderr is where the worktree tool's diagnostics go: nowhere
// in a test case, whose worktrees are its own (stratos test removes them
// when the case ends), so that their warnings (a repository without
// origin/HEAD, the case's own changes kept at release) are not printed
// case after case; they stay in the run record's worktree events, and
// stratos test prints each once. A failure still comes back as the tool's
// error.
func worktreeToolStderr(testCase *agentproto.TestCase, stderr io.Writer) io.Writer {
	if testCase != nil {
		return io.Discard
	}
	return stderr
}

// refuseRealDecision refuses a decision of a test case that does not
// allow real harnesses when its configuration does not put it on the test
// provider: the case's decisions reach the tested workflow's own decisions
// only (decision overrides are never inherited, and a decision() call that
// names its provider is not scripted), and any other would ask a model
// and spend tokens. A configuration that does not resolve is left to the
// decision, which reports it.
func refuseRealDecision(testCase *agentproto.TestCase, req decision.Request, p agentproto.DecisionParams) error {
	if testCase == nil || testCase.AllowRealHarness {
		return nil
	}
	cfg, err := decision.Resolve(req.Layers...)
	if err != nil || cfg.Provider == decision.ProviderTest {
		return nil
	}
	return agentproto.Errorf(agentproto.CodeDecisionConfiguration,
		"test case %s: decision %s of workflow %q would ask a model (provider %q), which the case does not allow: "+
			"the case's decisions script the tested workflow's decisions only (not a child's, nor a decision() that names its provider); "+
			"set allowRealHarness: true on the case", testCase, p.DecisionID, p.Workflow.Name, cfg.Provider).
		WithDetails(map[string]any{"testCase": testCase.Name, "workflow": p.Workflow.Name, "provider": cfg.Provider})
}
