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

// TestEveryFailingFieldIsReported: each failing field is a problem of its
// own, also several inside one field (the items of an array, the fields of
// worktree), not only the first mismatch the validator meets.
func TestEveryFailingFieldIsReported(t *testing.T) {
	v, err := builtinValidator()
	if err != nil {
		t.Fatal(err)
	}
	got := v.Entry("", "agent", map[string]any{
		"allowedTools":            []any{"", 5},
		"structuredOutputRetries": 11,
		"worktree":                map[string]any{"enabled": "yes", "name": ""},
	}, false)
	const tools, worktree = "; allowedTools must be an array of built-in tool names (see stratos tools list)",
		"; worktree must be an object {enabled: boolean, name?: string, cleanup?: boolean}"
	want := []Problem{
		{Path: "agent.allowedTools.0", Message: "minLength: got 0, want 1" + tools},
		{Path: "agent.allowedTools.1", Message: "got number, want string" + tools},
		{Path: "agent.structuredOutputRetries", Message: "must be an integer from 0 to 10: how many times a structured output that fails the outputSchema " +
			"is sent back with its validation errors (harnesses without a native retry), got 11 (maximum: got 11, want 10)"},
		{Path: "agent.worktree.enabled", Message: "got string, want boolean" + worktree},
		{Path: "agent.worktree.name", Message: `must be a worktree name: ASCII letters, digits, '.', '_' and '-', starting with a letter or digit, at most 100 characters, no '..', not ending in '.' or '.lock', got ""`},
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n got %q\nwant %q", got, want)
	}
}
