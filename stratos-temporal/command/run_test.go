package command

import (
	"slices"
	"testing"
)

// A resumed run's arguments keep its own flags and workflow, with those
// runs resume gives in place of theirs (an earlier resume's included).
func TestOverrideArgs(t *testing.T) {
	resumed := []string{`--input={"a":1}`, "--budget-usd=2", "--replay-strict=true", "--retry=1", "steps"}
	got := overrideArgs(resumed, []string{`--input={"a":2}`, "--replay-strict=false"})
	want := []string{"--budget-usd=2", "--retry=1", `--input={"a":2}`, "--replay-strict=false", "steps"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := overrideArgs([]string{"steps"}, nil); !slices.Equal(got, []string{"steps"}) {
		t.Errorf("without flags: %q", got)
	}
}
