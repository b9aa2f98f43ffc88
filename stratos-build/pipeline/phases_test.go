package pipeline

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
)

func TestPhaseClockAndStepsLogWhereTheTimeWent(t *testing.T) {
	var buf bytes.Buffer
	log := hclog.New(&hclog.LoggerOptions{Output: &buf, Level: hclog.Debug})
	clock, steps := startPhases(log, 3), newStepTimes()
	for range 3 {
		steps.start("wrapper")()
	}
	steps.start("tsc")()
	clock.done("compile")
	steps.log(log)
	out := buf.String()
	for _, want := range []string{
		"build phase: phase=compile workflows=3 wall=", " cpu=", " children_cpu=",
		"build step: step=wrapper runs=3 total=", "build step: step=tsc runs=1 total=",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("profile lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "step=wrapper") > strings.Index(out, "step=tsc") {
		t.Errorf("steps not in the order they first ran:\n%s", out)
	}
}

func TestNilProfileTimesNothing(t *testing.T) {
	var clock *phaseClock
	var steps *stepTimes
	clock.done("compile")
	steps.start("tsc")()
	steps.log(hclog.NewNullLogger())
}
