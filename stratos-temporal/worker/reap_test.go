package worker

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// upHost is a host that is up, without a process (nothing to stop).
func upHost() *host {
	h := &host{spawned: make(chan struct{}), ready: make(chan struct{}), events: map[string]*eventSink{}, worktrees: map[string]eventapi.WorktreeAcquired{}}
	close(h.spawned)
	close(h.ready)
	return h
}

func TestReapClosesTheHostsOfRunsThatEnded(t *testing.T) {
	busy := upHost()
	busy.collect("run-busy/agent-1") // an execute in flight
	starting := &host{spawned: make(chan struct{}), ready: make(chan struct{})}
	hs := &hosts{worker: "w1", stderr: io.Discard, byRun: map[string]*host{
		"run-ended": upHost(), "run-running": upHost(), "run-unknown": upHost(), "run-busy": busy, "run-starting": starting,
	}}
	a := &agents{hosts: hs, repos: newRepos(t.TempDir(), io.Discard)}
	var asked []string
	a.reapEnded(context.Background(), func(_ context.Context, runID string) (bool, error) {
		asked = append(asked, runID)
		switch runID {
		case "run-running":
			return false, nil
		case "run-unknown":
			return false, errors.New("the server does not answer")
		}
		return true, nil
	})
	if want := []string{"run-ended", "run-running", "run-unknown"}; !slices.Equal(asked, want) {
		t.Errorf("asked about %v, want %v (not the runs with an execute in flight or a host starting)", asked, want)
	}
	var left []string
	for id := range hs.byRun {
		left = append(left, id)
	}
	slices.Sort(left)
	if want := []string{"run-busy", "run-running", "run-starting", "run-unknown"}; !slices.Equal(left, want) {
		t.Errorf("hosts left: %v, want %v", left, want)
	}
}
