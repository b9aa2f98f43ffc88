package main

import (
	"testing"
	"time"
)

func TestGuardMemoryStopsARunWhenMemoryRunsLow(t *testing.T) {
	p := &process{done: make(chan struct{})}
	stopped := false
	// No machine has this much memory available: the guard stops the run.
	low := guardMemory(p, 1<<62, func() { stopped = true; close(p.done) })
	select {
	case m := <-low:
		if !stopped || m <= 0 {
			t.Errorf("guard said %d KiB, stopped %v; want the available memory and the run stopped", m, stopped)
		}
	case <-time.After(time.Minute):
		t.Fatal("the guard did not stop the run")
	}
}

func TestGuardMemoryLeavesARunAlone(t *testing.T) {
	p := &process{done: make(chan struct{})}
	low := guardMemory(p, 0, func() { t.Error("the guard stopped a run with memory to spare") })
	time.Sleep(300 * time.Millisecond)
	close(p.done)
	if m := <-low; m != 0 {
		t.Errorf("guard said %d at the run's end, want 0", m)
	}
}
