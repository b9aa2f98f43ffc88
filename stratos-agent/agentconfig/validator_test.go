package agentconfig

import (
	"slices"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// builtinValidator checks configurations against the built-in harnesses.
func builtinValidator() (*Validator, error) {
	reg, err := harnesses.New(harnesses.Builtin(adapter.Options{})...)
	if err != nil {
		return nil, err
	}
	return NewValidator(reg.Names(), reg.Tools())
}

// TestHarnessMustBeRegistered: the harness field accepts exactly the names
// the validator was made for, so a harness registered elsewhere needs no
// change to the schema file.
func TestHarnessMustBeRegistered(t *testing.T) {
	table, err := tools.NewTable()
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewValidator([]string{"mine"}, table)
	if err != nil {
		t.Fatal(err)
	}
	if p := v.Entry("", "agent", map[string]any{"harness": "mine"}, false); len(p) != 0 {
		t.Errorf("registered harness refused: %v", p)
	}
	p := v.Entry("", "agent", map[string]any{"harness": "codex"}, false)
	if len(p) != 1 || p[0].Path != "agent.harness" || !slices.ContainsFunc(p, func(p Problem) bool { return p.Message != "" }) {
		t.Errorf("unregistered harness: %v", p)
	}
}
