package command

import (
	"runtime/debug"
	"testing"
)

func TestTuneHostGCLowersGOGCUnlessTheUserSetIt(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)

	tuneHostGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != hostGCPercent {
		t.Errorf("without GOGC: GC percent %d, want %d", got, hostGCPercent)
	}
	tuneHostGC(func(k string) string {
		if k == "GOGC" {
			return "100"
		}
		return ""
	})
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=100 set by the user: GC percent %d, want 100 kept", got)
	}
}
