package testcases

import (
	"encoding/json"
	"fmt"

	"github.com/stratoscli/stratos/shared/contract/runapi"
)

// decisionScript is the path of the decision overrides' script in the
// agent host's problems: where the case's decisions go.
const decisionScript = "overrides.decision.script"

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

// DecisionProblem is a problem the agent host found in the decision
// overrides of the case's run, at path ("overrides.decision.<field>"):
// when it is the script the case's decisions gave, it is named as the
// case's decisions (and their file), at their line; otherwise as the
// overrides field.
func (c Case) DecisionProblem(path, message string) runapi.TestCaseProblem {
	if path != decisionScript || len(c.Decisions) == 0 {
		return c.Problem("%s: %s", path, message)
	}
	p := c.Problem("decisions: %s", message)
	var ref struct {
		File string `json:"file"`
	}
	if json.Unmarshal(c.Decisions, &ref) == nil && ref.File != "" {
		p.Message = "decisions " + ref.File + ": " + message
	}
	if c.decisionsLine > 0 {
		p.Line = c.decisionsLine
	}
	return p
}
