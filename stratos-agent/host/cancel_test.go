package host

import (
	"context"
	"errors"
	"testing"
)

func cancelsOf(f *fakeAdapter) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cancels
}

// A cancel while no call runs reaches the harness session: background
// work of earlier prompts must stop (it was dropped before).
func TestCancelOfAnIdleAgentReachesTheHarness(t *testing.T) {
	var log []string
	f := &fakeAdapter{name: "a", log: &log}
	s := &session{pr: &prepared{adapter: f}, initialized: true, call: 2}
	s.requestCancel(2)
	if cancelsOf(f) != 1 {
		t.Fatalf("an idle cancel of the last call did not reach the adapter")
	}
	s.requestCancel(3) // overtakes execute 3: remembered, nothing runs yet
	if cancelsOf(f) != 1 || s.cancelledUpTo != 3 {
		t.Fatalf("a cancel of a call not yet arrived: cancels %d, cancelledUpTo %d", cancelsOf(f), s.cancelledUpTo)
	}
}

func TestCancelOfAnEndedCallSparesTheRunningOne(t *testing.T) {
	var log []string
	f := &fakeAdapter{name: "a", log: &log}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	s := &session{pr: &prepared{adapter: f}, initialized: true, busy: true, call: 3, cancel: cancel}
	s.requestCancel(2)
	if cancelsOf(f) != 0 || ctx.Err() != nil {
		t.Fatalf("a late cancel of call 2 stopped call 3")
	}
	s.requestCancel(3)
	if cancelsOf(f) != 1 || !errors.Is(context.Cause(ctx), errCancelled) {
		t.Fatalf("the running call was not cancelled")
	}
}
