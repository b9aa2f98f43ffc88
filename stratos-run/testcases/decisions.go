package testcases

import (
	"encoding/json"
	"fmt"
)

// setDecisions puts the run's decisions on the agent host's test
// provider, over the case's own decision overrides: with the case's
// decisions as the script, or, when the case gives none and does not
// allow real harnesses, without a script of its own (a script of
// workflow.yaml's still applies), so that a decision nothing scripts fails
// the case instead of calling a model. A case that allows real harnesses
// and scripts no decisions leaves them as they are.
func (c Case) setDecisions(doc map[string]any, dir string) error {
	if len(c.Decisions) == 0 && c.AllowRealHarness {
		return nil
	}
	decision, _ := doc["decision"].(map[string]any)
	if decision == nil {
		decision = map[string]any{}
	}
	decision["provider"] = "test"
	if len(c.Decisions) > 0 {
		raw, err := inlineOrFile(c.Decisions, dir)
		if err != nil {
			return fmt.Errorf("decisions: %w", err)
		}
		var script any
		if err := json.Unmarshal(raw, &script); err != nil {
			return fmt.Errorf("decisions: %w", err)
		}
		decision["script"] = script
	}
	doc["decision"] = decision
	return nil
}
