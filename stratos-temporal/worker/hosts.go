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
}

// host is one stratos-agent serve and the events it sends, by agent.
type host struct {
	proc *procgroup.Process
	conn *jsonrpc.Conn
	// stdin closes the host: it exits when its input ends.
	stdin io.Closer
	ready chan struct{}
	err   error

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
		h = &host{ready: make(chan struct{}), events: map[string]*eventSink{}, worktrees: map[string]eventapi.WorktreeAcquired{}}
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

func (hs *hosts) start(h *host, runID string, init agentproto.InitializeParams) {
	defer close(h.ready)
	cmd := exec.Command(hs.bin, "serve")
	cmd.Stderr = hs.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		h.err = err
		return
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		h.err = err
		return
	}
	// The host leads its harnesses; when this worker dies it gets SIGTERM
	// and time to stop them (the patient watchdog), as under stratos run.
	if h.proc, err = procgroup.Start(cmd, procgroup.Options{DeathSignal: syscall.SIGTERM, WatchdogPatience: hostPatience}); err != nil {
		h.err = fmt.Errorf("start %s: %w", hs.bin, err)
		return
	}
	h.stdin = stdin
	h.conn = jsonrpc.New(stdout, stdin, h.handle(hs.worker), nil)
	go func() { _ = h.conn.Serve(context.Background()) }()
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

// collect starts collecting agent's events; the returned func ends it and
// returns them.
func (h *host) collect(agent string) func() *eventSink {
	h.mu.Lock()
	sink := &eventSink{}
	h.events[agent] = sink
	h.mu.Unlock()
	return func() *eventSink {
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
	if h.stdin != nil {
		_ = h.stdin.Close()
	}
	if h.proc != nil {
		_ = h.proc.Wait()
	}
}

// closeAll ends every host (the worker is stopping).
func (hs *hosts) closeAll() {
	hs.mu.Lock()
	ids := make([]string, 0, len(hs.byRun))
	for id := range hs.byRun {
		ids = append(ids, id)
	}
	hs.mu.Unlock()
	for _, id := range ids {
		hs.close(id)
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
