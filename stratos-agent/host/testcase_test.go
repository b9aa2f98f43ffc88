package host

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/decision"
)

// In a test case that does not allow real harnesses, only an agent on the
// test harness passes; one on another harness, or with no harness (chosen
// from its models), is refused naming the case, workflow, agent and
// harness. Outside a test case, or in one that allows real harnesses,
// nothing is refused.
func TestRefuseRealHarness(t *testing.T) {
	harness := func(name string) agentproto.AgentConfig { return agentproto.AgentConfig{Harness: &name} }
	tc := agentproto.ParseTestCase(`{"name": "wf / c", "file": "tests/cases.yaml"}`)
	if err := refuseRealHarness(tc, harness("test"), "wf", "critic"); err != nil {
		t.Errorf("test harness: %v", err)
	}
	if err := refuseRealHarness(nil, harness("codex"), "wf", "critic"); err != nil {
		t.Errorf("outside a test case: %v", err)
	}
	allowed := agentproto.ParseTestCase(`{"name": "wf / c", "allowRealHarness": true}`)
	if err := refuseRealHarness(allowed, harness("codex"), "wf", "critic"); err != nil {
		t.Errorf("real harnesses allowed: %v", err)
	}
	for _, c := range []struct {
		config agentproto.AgentConfig
		named  string
	}{{harness("codex"), "codex"}, {agentproto.AgentConfig{}, "chosen from its models"}} {
		err := refuseRealHarness(tc, c.config, "child", "agent #2")
		want := `test case "wf / c" (tests/cases.yaml): agent "agent #2" of workflow "child" would run on a real harness (` + c.named + `)`
		if err == nil || agentproto.CodeOf(err) != agentproto.CodeUnscriptedAgent || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v", c.named, err)
		}
	}
}

// A mark that is not a test case's JSON still marks a test case, one that
// allows no real harness: a mangled mark must not let a test run spend
// tokens.
func TestParseTestCase(t *testing.T) {
	if tc := agentproto.ParseTestCase(""); tc != nil {
		t.Errorf("no mark: %+v", tc)
	}
	if tc := agentproto.ParseTestCase("{not json"); tc == nil || tc.AllowRealHarness || tc.Name != "{not json" {
		t.Errorf("mangled mark: %+v", tc)
	}
}

// In a test case that does not allow real harnesses, a decision on the
// test provider passes and one on another provider is refused naming the
// case, the decision and its workflow; one whose layers do not resolve is
// left to the decision.
func TestRefuseRealDecision(t *testing.T) {
	tc := agentproto.ParseTestCase(`{"name": "wf / c", "file": "tests/cases.yaml"}`)
	p := agentproto.DecisionParams{DecisionID: "x/decision-1", Workflow: agentproto.WorkflowRef{Name: "child"}}
	req := func(overrides string) decision.Request {
		return decision.Request{Layers: []decision.Layer{{Name: "overrides.decision", Raw: json.RawMessage(overrides)}}}
	}
	if err := refuseRealDecision(tc, req(`{"provider": "test", "script": []}`), p); err != nil {
		t.Errorf("test provider: %v", err)
	}
	if err := refuseRealDecision(tc, req(`{"provider": "ollama", "samples": 99}`), p); err != nil {
		t.Errorf("unresolved: %v", err)
	}
	if err := refuseRealDecision(nil, req(`{"provider": "ollama", "model": "qwen3:8b"}`), p); err != nil {
		t.Errorf("outside a test case: %v", err)
	}
	err := refuseRealDecision(tc, req(`{"provider": "ollama", "model": "qwen3:8b"}`), p)
	want := `test case "wf / c" (tests/cases.yaml): decision x/decision-1 of workflow "child" would ask a model (provider "ollama")`
	if err == nil || agentproto.CodeOf(err) != agentproto.CodeDecisionConfiguration || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("ollama: got %v", err)
	}
}
