package testcases

import (
	"encoding/json"
	"fmt"

	"gopkg.in/yaml.v3"
)

// Defaults are a case file's defaults: what each of its cases gets unless
// it gives its own. Scripts merge per target (a case's own entry wins);
// every other field is the case's own when the case gives it.
type Defaults struct {
	Input            json.RawMessage            `json:"input,omitempty"`
	Overrides        json.RawMessage            `json:"overrides,omitempty"`
	Scripts          map[string]json.RawMessage `json:"scripts,omitempty"`
	Budget           *Budget                    `json:"budget,omitempty"`
	AllowRealHarness bool                       `json:"allowRealHarness,omitempty"`
	Decisions        json.RawMessage            `json:"decisions,omitempty"`

	scriptLines   map[string]int
	decisionsLine int
}

func decodeDefaults(n *yaml.Node) (*Defaults, error) {
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("a mapping {input, overrides, scripts, budget, allowRealHarness, decisions}")
	}
	var d Defaults
	if err := decodeStrict(n, &d); err != nil {
		return nil, err
	}
	if err := d.Budget.check(); err != nil {
		return nil, err
	}
	d.scriptLines = keyLines(field(n, "scripts"))
	d.decisionsLine = keyLines(n)["decisions"]
	return &d, nil
}

// apply gives c (decoded from n) the defaults it does not override. A
// script or decisions from the defaults are reported at their line in the
// defaults.
func (d *Defaults) apply(c *Case, n *yaml.Node) {
	if d == nil {
		return
	}
	if len(c.Input) == 0 {
		c.Input = d.Input
	}
	if len(c.Overrides) == 0 {
		c.Overrides = d.Overrides
	}
	if c.Budget == nil {
		c.Budget = d.Budget
	}
	if len(c.Decisions) == 0 {
		c.Decisions, c.decisionsLine = d.Decisions, d.decisionsLine
	}
	if field(n, "allowRealHarness").Kind == 0 {
		c.AllowRealHarness = d.AllowRealHarness
	}
	for target, script := range d.Scripts {
		if _, own := c.Scripts[target]; own {
			continue
		}
		if c.Scripts == nil {
			c.Scripts = map[string]json.RawMessage{}
		}
		if c.scriptLines == nil {
			c.scriptLines = map[string]int{}
		}
		c.Scripts[target], c.scriptLines[target] = script, d.scriptLines[target]
	}
}
