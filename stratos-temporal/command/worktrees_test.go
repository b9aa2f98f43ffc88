package command

import "testing"

func TestWorkflowArgsFindTheWorkflowAndTheOverrides(t *testing.T) {
	for _, c := range []struct {
		args                []string
		name, overridesWant string
	}{
		{[]string{"--input={}", "review"}, "review", ""},
		{[]string{"--input", "{}", "--json", "review"}, "review", ""},
		{[]string{"--overrides={\"agents\":{}}", "review"}, "review", `{"agents":{}}`},
		{[]string{"--overrides", "@o.yaml", "review"}, "review", "@o.yaml"},
		{[]string{"--json", "--", "review"}, "review", ""},
	} {
		name, overrides := workflowArgs(c.args)
		if name != c.name || overrides != c.overridesWant {
			t.Errorf("workflowArgs(%q) = %q, %q; want %q, %q", c.args, name, overrides, c.name, c.overridesWant)
		}
	}
}
