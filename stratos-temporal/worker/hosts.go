package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// maxEventBytes bounds the events one execute carries back to the run:
// they travel in a Temporal payload, whose size the server limits.
const maxEventBytes = 512 << 10

// hostPatience is how long a host whose worker died gets to stop its
// harnesses before its whole group is killed.
const hostPatience = 10 * time.Second

// hosts are the agent hosts (stratos-agent serve) this worker keeps, one
// per run it executes agents of: an agent's later executes come back to
// the host holding its conversation.
type hosts struct {
	bin    string // stratos-agent
	dir    string // where each run's host keeps its run directory
	worker string
	stderr io.Writer

	mu    sync.Mutex
	byRun map[string]*host
	// spare is a host started ahead of the next run that needs one, not
	// yet initialized: a run's first execute on this worker then waits for
	// its host's initialize, not for its process to start (hundreds of
	// milliseconds on a loaded machine, in every run's first wave of
	// agents). nil until prepare, and once the worker stops.
	spare   *host
	stopped bool
}

// host is one stratos-agent serve and the events it sends, by agent.
type host struct {
	proc *procgroup.Process
	conn *jsonrpc.Conn
	// stdin closes the host: it exits when its input ends.
	stdin io.Closer
	// spawned closes once the process started (spawnErr: it did not);
	// ready once it is initialized for its run (err: it was not).
	spawned  chan struct{}
	spawnErr error
	ready    chan struct{}
	err      error

	mu     sync.Mutex
	events map[string]*eventSink
	// worktrees are the agents' worktrees, by agent ID, as the host's
	// worktree.acquired events name them: the work in them is published
	// after each execute.
	worktrees map[string]eventapi.WorktreeAcquired
}

// eventSink collects an agent's events during one execute.
type eventSink struct {
	lines   []json.RawMessage
	size    int
	dropped int
}

// get returns the run's host, starting and initializing it on first use.
func (hs *hosts) get(runID string, init agentproto.InitializeParams) (*host, error) {
	hs.mu.Lock()
	h := hs.byRun[runID]
	if h == nil {
		h = hs.takeSpare()
		hs.byRun[runID] = h
		go hs.start(h, runID, init)
	}
	hs.mu.Unlock()
	<-h.ready
	if h.err != nil {
		hs.mu.Lock()
		delete(hs.byRun, runID)
		hs.mu.Unlock()
		return nil, h.err
	}
	return h, nil
}

// prepare starts the spare host of the first run.
func (hs *hosts) prepare() {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.spare == nil && !hs.stopped {
		hs.spare = hs.spawnHost()
	}
}

// takeSpare returns the spare host (a host starting now when there is
// none) and starts the next one; hs.mu is held.
func (hs *hosts) takeSpare() *host {
	h := hs.spare
	hs.spare = nil
	if h == nil {
		h = hs.spawnHost()
	}
	if !hs.stopped {
		hs.spare = hs.spawnHost()
	}
	return h
}

// spawnHost starts a stratos-agent serve in the background.
func (hs *hosts) spawnHost() *host {
	h := &host{spawned: make(chan struct{}), ready: make(chan struct{}), events: map[string]*eventSink{}, worktrees: map[string]eventapi.WorktreeAcquired{}}
	go hs.spawn(h)
	return h
}

func (hs *hosts) spawn(h *host) {
	defer close(h.spawned)
	cmd := exec.Command(hs.bin, "serve")
	cmd.Stderr = hs.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		h.spawnErr = err
		return
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		h.spawnErr = err
		return
	}
	// The host leads its harnesses; when this worker dies it gets SIGTERM
	// and time to stop them (the patient watchdog), as under stratos run.
	if h.proc, err = procgroup.Start(cmd, procgroup.Options{DeathSignal: syscall.SIGTERM, WatchdogPatience: hostPatience}); err != nil {
		h.spawnErr = fmt.Errorf("start %s: %w", hs.bin, err)
		return
	}
	h.stdin = stdin
	h.conn = jsonrpc.New(stdout, stdin, h.handle(hs.worker), nil)
	go func() { _ = h.conn.Serve(context.Background()) }()
}

// start initializes a spawned host for the run.
func (hs *hosts) start(h *host, runID string, init agentproto.InitializeParams) {
	defer close(h.ready)
	<-h.spawned
	if h.spawnErr != nil {
		h.err = h.spawnErr
		return
	}
	init.RunDir = filepath.Join(hs.dir, runID)
	init.Events = true
	if err := os.MkdirAll(init.RunDir, 0o700); err != nil {
		h.err = err
		return
	}
	if err := h.conn.Call(context.Background(), agentproto.MethodInitialize, init, nil); err != nil {
		h.err = fmt.Errorf("initialize the agent host: %w", err)
	}
}

// handle answers what the host sends: events, kept for the execute of
// their agent. Hooks are never asked of a remote host: an agent with hooks
// runs beside the workflow code.
func (h *host) handle(worker string) jsonrpc.Handler {
	return func(_ context.Context, method string, params json.RawMessage) (any, error) {
		if method != agentproto.MethodEvent {
			return nil, &agentproto.Error{Code: agentproto.CodeInternal, Message: method + ": not available on a stratos worker"}
		}
		var e eventapi.Event
		if err := json.Unmarshal(params, &e); err != nil || e.AgentID == "" {
			return nil, nil
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if wt, ok := e.Details.(*eventapi.WorktreeAcquired); ok {
			h.worktrees[e.AgentID] = *wt
		}
		sink := h.events[e.AgentID]
		if sink == nil {
			return nil, nil
		}
		// Streamed text deltas repeat what the execute's result and
		// message events hold, and are most of the bytes.
		if e.Type == eventapi.TypeMessageDelta {
			return nil, nil
		}
		e.Worker = worker
		line, err := json.Marshal(e)
		if err != nil || sink.size+len(line) > maxEventBytes {
			sink.dropped++
			return nil, nil
		}
		sink.lines, sink.size = append(sink.lines, line), sink.size+len(line)
		return nil, nil
	}
}

// seen is how many events the sink holds and, when that is more than
// after, a copy of them (for a heartbeat).
func (h *host) seen(sink *eventSink, after int) (int, []json.RawMessage) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(sink.lines)
	if n <= after {
		return n, nil
	}
	return n, append([]json.RawMessage(nil), sink.lines...)
}

// collect starts collecting agent's events; the returned func ends it and
// returns them.
func (h *host) collect(agent string) (*eventSink, func() *eventSink) {
	h.mu.Lock()
	sink := &eventSink{}
	h.events[agent] = sink
	h.mu.Unlock()
	return sink, func() *eventSink {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.events, agent)
		return sink
	}
}

// worktree is the agent's worktree (false: it has none).
func (h *host) worktree(agent string) (eventapi.WorktreeAcquired, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	wt, ok := h.worktrees[agent]
	return wt, ok
}

// has reports whether the worker keeps a host for the run.
func (hs *hosts) has(runID string) bool {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	return hs.byRun[runID] != nil
}

// idleRuns are the runs whose host is up and runs no execute now.
func (hs *hosts) idleRuns() []string {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	var ids []string
	for id, h := range hs.byRun {
		select {
		case <-h.ready:
		default:
			continue // starting: its first execute is on its way
		}
		h.mu.Lock()
		idle := len(h.events) == 0
		h.mu.Unlock()
		if idle {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// close ends the run's host: its input ends, it closes its sessions and
// exits.
func (hs *hosts) close(runID string) {
	hs.mu.Lock()
	h := hs.byRun[runID]
	delete(hs.byRun, runID)
	hs.mu.Unlock()
	if h == nil {
		return
	}
	<-h.ready
	h.stop()
}

// stop ends a host's process: its input ends, it closes its sessions and
// exits.
func (h *host) stop() {
	<-h.spawned
	if h.stdin != nil {
		_ = h.stdin.Close()
	}
	if h.proc != nil {
		_ = h.proc.Wait()
	}
}

// closeAll ends every host and the spare (the worker is stopping).
func (hs *hosts) closeAll() {
	hs.mu.Lock()
	hs.stopped = true
	spare := hs.spare
	hs.spare = nil
	ids := make([]string, 0, len(hs.byRun))
	for id := range hs.byRun {
		ids = append(ids, id)
	}
	hs.mu.Unlock()
	for _, id := range ids {
		hs.close(id)
	}
	if spare != nil {
		spare.stop()
	}
}

// rpcError turns a host's error response into the reply's error.
func rpcError(err error) (code int, message string, data json.RawMessage, ok bool) {
	var re *jsonrpc.RemoteError
	if !errors.As(err, &re) {
		return 0, "", nil, false
	}
	return re.Code, re.Message, re.Data, true
}
