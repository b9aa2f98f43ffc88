package temporalapi

import "testing"

// A run cancelled from outside whose code failed with an agent's
// cancellation ends cancelled (130); one that succeeded first stays so.
func TestAsCancelled(t *testing.T) {
	one, zero := 1, 0
	if s := (RunState{Status: "failed", ExitCode: &one}).AsCancelled(); s.Status != "cancelled" || *s.ExitCode != 130 {
		t.Errorf("failed, cancelled from outside = %s (%d), want cancelled (130)", s.Status, *s.ExitCode)
	}
	if s := (RunState{Status: "succeeded", ExitCode: &zero}).AsCancelled(); s.Status != "succeeded" || *s.ExitCode != 0 {
		t.Errorf("succeeded, cancelled from outside = %s (%d), want it as it was", s.Status, *s.ExitCode)
	}
}
