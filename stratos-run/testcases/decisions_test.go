package testcases

import (
	"encoding/json"
	"testing"
)

// A case's decisions put the run's decisions on the test provider with
// them as the script (inline or from a file), over the case's other
// decision overrides; a case without decisions still keeps its decisions
// off the models unless it allows real harnesses.
func TestRunOverridesScriptsDecisions(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "tests/decisions.yaml", "- when: {kind: verdict}\n  answer: yes\n")
	for _, c := range []struct {
		name string
		c    Case
		want string
	}{
		{"inline", Case{Overrides: json.RawMessage(`{"decision":{"samples":3}}`), Decisions: json.RawMessage(`[{"answer":"red"}]`)},
			`{"decision":{"provider":"test","samples":3,"script":[{"answer":"red"}]}}`},
		{"file", Case{Decisions: json.RawMessage(`{"file":"tests/decisions.yaml"}`)},
			`{"decision":{"provider":"test","script":[{"answer":"yes","when":{"kind":"verdict"}}]}}`},
		{"none", Case{}, `{"decision":{"provider":"test"}}`},
		{"none, real harnesses allowed", Case{AllowRealHarness: true, Overrides: json.RawMessage(`{"decision":{"model":"m"}}`)}, `{"decision":{"model":"m"}}`},
		{"real harnesses allowed, scripted", Case{AllowRealHarness: true, Decisions: json.RawMessage(`[]`)}, `{"decision":{"provider":"test","script":[]}}`},
	} {
		got, err := c.c.RunOverrides(dir, Declared{})
		if err != nil || string(got) != c.want {
			t.Errorf("%s: got %s, %v\nwant %s", c.name, got, err, c.want)
		}
	}
	if _, err := (Case{Decisions: json.RawMessage(`{"file":"tests/missing.yaml"}`)}).RunOverrides(dir, Declared{}); err == nil {
		t.Error("a missing decisions file is no error")
	}
}
