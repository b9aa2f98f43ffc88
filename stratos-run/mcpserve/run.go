package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/shared/sibling"
)

// stopGrace is how long a cancelled run may take to cancel its workflow and
// clean up before it is killed: the bound `stratos runs stop` waits, plus a
// margin.
const stopGrace = 35 * time.Second

// findPoll is how often the server looks for the record of a run it started.
const findPoll = 100 * time.Millisecond

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
	path, err := sibling.Find(toolRun)
	if err != nil {
		return RunResult{}, err
	}
	var stdout bytes.Buffer
	cmd := exec.CommandContext(ctx, path, runArgs(name, overrides)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(input), &stdout, s.stderr
	cmd.WaitDelay = stopGrace
	p, err := procgroup.Start(cmd, procgroup.Options{DeathSignal: syscall.SIGTERM, CancelSignal: syscall.SIGTERM})
	if err != nil {
		return RunResult{}, errorf("start %s: %v", path, err)
	}
	var id started
	watchCtx, stopWatching := context.WithCancel(context.WithoutCancel(ctx))
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		s.watch(watchCtx, name, p.Pid(), &id, onEvent)
	}()
	runErr := p.Wait()
	stopWatching()
	<-watched
	if runErr != nil {
		return RunResult{}, envelopeError(stdout.Bytes(), runErr, "run "+name)
	}
	res := RunResult{ExecutionID: id.get(), Workflow: name}
	if res.ExecutionID == "" {
		res.ExecutionID = s.findRun(context.WithoutCancel(ctx), name, p.Pid())
	}
	if err := json.Unmarshal(stdout.Bytes(), &res.Output); err != nil {
		return RunResult{}, errorf("decode the output of %s: %v", name, err)
	}
	return res, nil
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
	path, err := sibling.Find(toolRun)
	if err != nil {
		return
	}
	cmd := exec.CommandContext(ctx, path, "runs", "logs", id, "--follow", "--json")
	// A pipe of our own rather than StdoutPipe: Wait closes that one, and
	// the last events may still be unread when the process exits.
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, s.stderr
	p, err := procgroup.Start(cmd, procgroup.Options{})
	if err != nil {
		return
	}
	go func() { w.CloseWithError(p.Wait()) }()
	_ = eachEvent(r, onEvent)
}
