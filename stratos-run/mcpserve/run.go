package mcpserve

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/toolcall"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// stopGrace is how long a cancelled run may take to cancel its workflow and
// clean up before it is killed: the bound `stratos runs stop` waits, plus a
// margin.
const stopGrace = 35 * time.Second

// findPoll is how often the server looks for the record of a run it started.
const findPoll = 100 * time.Millisecond

// drainWait bounds how long a finished run's result waits for the events
// still on their way to the client: a run quicker than the watcher's first
// look would otherwise end with none of its progress reported.
const drainWait = 5 * time.Second

// started is the run the server started, as it becomes known.
type started struct {
	mu sync.Mutex
	id string
}

func (s *started) set(id string) { s.mu.Lock(); s.id = id; s.mu.Unlock() }
func (s *started) get() string   { s.mu.Lock(); defer s.mu.Unlock(); return s.id }

// runArgs is the `stratos-run run` command line: the input comes on stdin,
// so its size is not bounded by the command line's.
func runArgs(name string, overrides json.RawMessage) []string {
	args := []string{"run", name, "--input", "-", "--json"}
	if len(overrides) > 0 {
		args = append(args, "--overrides", string(overrides))
	}
	return args
}

// run runs the workflow as `stratos-run run` and waits for it. The run is a
// child of the server: cancelling ctx sends it SIGTERM, the same
// cancellation as Ctrl-C or `stratos runs stop`, and so does the server's
// own death (its parent-death signal). onEvent receives the run's events as
// it records them.
func (s stratos) run(ctx context.Context, name string, input, overrides json.RawMessage, onEvent func(eventapi.Event)) (RunResult, error) {
	watchCtx, stopWatching := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWatching()
	var id started
	pid, watched := 0, make(chan struct{})
	call := s.call(toolRun, runArgs(name, overrides)...)
	call.Input, call.StopGrace, call.MaxOutput = input, stopGrace, records.MaxResultSize
	call.Started = func(p int) {
		pid = p
		go func() {
			defer close(watched)
			s.watch(watchCtx, name, p, &id, onEvent)
		}()
	}
	res := RunResult{Workflow: name}
	err := toolcall.Run(ctx, call, &res.Output)
	if pid == 0 { // never started
		stopWatching()
		return RunResult{}, err
	}
	// A run that succeeded has a record, and one that failed does once its
	// ID is known: the watcher then reaches the end of its events by itself.
	drain(ctx, watched, stopWatching, err == nil || id.get() != "")
	if err != nil {
		return RunResult{}, err
	}
	res.ExecutionID = id.get()
	if res.ExecutionID == "" {
		res.ExecutionID = s.findRun(context.WithoutCancel(ctx), name, pid)
	}
	return res, nil
}

// drain lets the watcher pass the rest of the run's events, when wait is
// set, for at most drainWait or until ctx is done, then stops it.
func drain(ctx context.Context, watched <-chan struct{}, stopWatching func(), wait bool) {
	if wait {
		t := time.NewTimer(drainWait)
		defer t.Stop()
		select {
		case <-watched:
		case <-t.C:
		case <-ctx.Done():
		}
	}
	stopWatching()
	<-watched
}

// watch finds the record of the run whose process is pid, then follows its
// events until ctx is done.
func (s stratos) watch(ctx context.Context, name string, pid int, id *started, onEvent func(eventapi.Event)) {
	t := time.NewTicker(findPoll)
	defer t.Stop()
	for id.get() == "" {
		if found := s.findRun(ctx, name, pid); found != "" {
			id.set(found)
			break
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
	s.follow(ctx, id.get(), onEvent)
}

// findRun returns the execution ID of the workflow's run whose process is
// pid, or "" while its record is not written yet.
func (s stratos) findRun(ctx context.Context, name string, pid int) string {
	runs, err := s.runsOf(ctx, name)
	if err != nil {
		return ""
	}
	for _, r := range runs {
		if r.PID == pid {
			return r.ExecutionID
		}
	}
	return ""
}

// follow passes the run's events to onEvent as `stratos runs logs --follow
// --json` prints them, until the run ends or ctx is done.
func (s stratos) follow(ctx context.Context, id string, onEvent func(eventapi.Event)) {
	_ = toolcall.Lines(ctx, s.call(toolRun, "runs", "logs", id, "--follow", "--json"), eachEvent(onEvent))
}
