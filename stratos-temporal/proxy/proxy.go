// Package proxy is the agent host of workflow code that runs on the
// Temporal engine: to the SDK it is stratos-agent serve (the same JSON-RPC,
// on stdin/stdout), and it is one, a local stratos-agent it passes every
// message to, except agent executes: each becomes a Temporal workflow of its
// own (engine.Execute), which runs it on agent workers, and which this host
// starts and runs itself (or attaches to, when a lost attempt of the code
// started it). It also tells the run's workflow the executes' starts and
// ends and passes it the code's journal, as the SDK writes it.
package proxy

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	tworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// EnvRun names the run's Temporal workflow ID, EnvQueue its task queue
// (where its execute workflows go); the worker that runs the code sets
// them for the proxy (and the run's record keeps EnvRun: AttemptOf).
const (
	EnvRun   = temporalapi.EnvRun
	EnvQueue = "STRATOS_TEMPORAL_QUEUE"
)

// Run names the run a proxy serves: its workflow ID and task queues, and
// the data converter of the proxy's client (its codec), which reads the
// executes' histories.
type Run struct {
	ID, Queue, AgentQueue string
	Converter             converter.DataConverter
	// Publish is the remote of the run's repository when the code runs in
	// a worker's checkout of it ("" when it runs in the submitting
	// directory): agents beside the code push their worktree work there.
	Publish string
}

// Proxy is one workflow code's agent host.
type Proxy struct {
	client client.Client
	run    Run
	host   string // the local stratos-agent
	stderr io.Writer

	up, down *jsonrpc.Conn

	mu      sync.Mutex
	init    *agentproto.InitializeParams
	remote  map[string]*agent // by agent ID, once it ran remotely
	polled  map[string]bool   // harness queues seen polled
	yaml    yamlAgents
	byModel *modelRoutes
	admit   *admitter // set once the host initialized
	journal *tail
	// worktrees are those of agents beside the code, by agent ID, when
	// their work is published (Run.Publish).
	worktrees map[string]eventapi.WorktreeAcquired
	// eventsHeld: the proxy asked the local host for events the SDK did
	// not ask for, and passes none up.
	eventsHeld bool
	// record tells the run's workflow the executes' starts and ends and
	// the journal's entries.
	record *recorder
	// closing are the execute workflows answered from their history and
	// not yet closed.
	closing sync.WaitGroup
}

// agent is what the proxy knows of an agent that runs remotely.
type agent struct {
	// sticky is the own queue of the worker holding its conversation.
	sticky string
	// running is the execute workflow of its call in flight ("" none).
	running string
	call    int
}

// New returns the proxy of run, passing what stays local to the
// stratos-agent at host.
func New(c client.Client, run Run, host string, stderr io.Writer) *Proxy {
	p := &Proxy{client: c, run: run, host: host, stderr: stderr, remote: map[string]*agent{}, polled: map[string]bool{}, worktrees: map[string]eventapi.WorktreeAcquired{},
		byModel: newModelRoutes(catalog.Sibling{Stderr: stderr})}
	p.record = startRecorder(p.signalRecord, stderr, recordLinger)
	return p
}

// Serve serves the SDK on in/out until in ends, then ends the local host
// and passes the rest of the journal on.
func (p *Proxy) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	cmd := exec.Command(p.host, "serve")
	cmd.Stderr = p.stderr
	hostIn, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	hostOut, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	execs, err := p.runExecutes()
	if err != nil {
		return err
	}
	defer execs.Stop()
	proc, err := procgroup.Start(cmd, procgroup.Options{DeathSignal: syscall.SIGTERM})
	if err != nil {
		return fmt.Errorf("start %s: %w", p.host, err)
	}
	p.down = jsonrpc.New(hostOut, hostIn, p.fromHost, nil)
	p.up = jsonrpc.New(in, out, p.fromSDK, nil)
	go func() { _ = p.down.Serve(ctx) }()
	serveErr := p.up.Serve(ctx)
	_ = hostIn.Close()
	_ = proc.Wait()
	if t := p.tail(); t != nil {
		t.stop(ctx)
	}
	p.record.close()
	p.closing.Wait()
	return serveErr
}

// runExecutes starts running the run's execute workflows here: each one
// this proxy starts is started eagerly, its first workflow task in the
// start's answer instead of through a worker's poller, and its later
// tasks come back here while this proxy lives (to the code workers of the
// queue when it is gone).
func (p *Proxy) runExecutes() (tworker.Worker, error) {
	w := tworker.New(p.client, engine.ExecuteQueue(p.run.Queue), tworker.Options{LocalActivityWorkerOnly: true})
	w.RegisterWorkflowWithOptions(engine.Execute, workflow.RegisterOptions{Name: engine.WorkflowExecute})
	if err := w.Start(); err != nil {
		return nil, fmt.Errorf("run the executes' workflows: %w", err)
	}
	return w, nil
}

// Notifications each side sends (the rest are requests).
var notifications = map[string]bool{
	agentproto.MethodAgentCancel: true, agentproto.MethodDecisionCancel: true, agentproto.MethodEvent: true,
}

// fromHost passes the local host's messages (events, hooks) to the SDK.
func (p *Proxy) fromHost(ctx context.Context, method string, params json.RawMessage) (any, error) {
	if notifications[method] {
		if method == agentproto.MethodEvent {
			p.noteWorktree(params)
			if !p.sdkEvents() {
				return nil, nil
			}
		}
		return nil, p.up.Notify(method, params)
	}
	var res json.RawMessage
	err := p.up.Call(ctx, method, params, &res)
	return res, err
}

// fromSDK passes the SDK's messages to the local host, but agent executes
// (and their cancellation) to the run's workflow.
func (p *Proxy) fromSDK(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case agentproto.MethodInitialize:
		var init agentproto.InitializeParams
		if err := json.Unmarshal(params, &init); err != nil {
			return nil, &agentproto.Error{Code: agentproto.CodeProtocol, Message: "initialize: " + err.Error()}
		}
		// The local host answers; KeysExecutes has the SDK send each
		// execute's journal place, which executeID derives the execute's
		// workflow ID from.
		var res agentproto.InitializeResult
		if err := p.down.Call(ctx, method, p.askEvents(init, params), &res); err != nil {
			return nil, err
		}
		p.started(init, res.Settings)
		res.KeysExecutes = true
		return &res, nil
	case agentproto.MethodAgentExecute:
		return p.execute(ctx, params)
	case agentproto.MethodAgentCancel:
		if p.cancelRemote(params) {
			return nil, nil
		}
	}
	if notifications[method] {
		return nil, p.down.Notify(method, params)
	}
	return p.forward(ctx, method, params)
}

func (p *Proxy) forward(ctx context.Context, method string, params json.RawMessage) (any, error) {
	var res json.RawMessage
	err := p.down.Call(ctx, method, params, &res)
	return res, err
}

// started notes how the SDK initialized the host and starts passing the
// journal on.
func (p *Proxy) started(init agentproto.InitializeParams, limits agentproto.Settings) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.init != nil {
		return
	}
	p.init = &init
	p.admit = newAdmitter(limits)
	dir := init.RunDir
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, ".stratos", "runs", init.ExecutionID)
		}
	}
	p.journal = startTail(filepath.Join(dir, "journal.jsonl"), filepath.Join(dir, "events.jsonl"), p.record.journal, p.stderr)
}

func (p *Proxy) tail() *tail {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.journal
}

// executeRef is what the proxy reads of an execute's params.
type executeRef struct {
	AgentID     string                   `json:"agentId"`
	Name        string                   `json:"name"`
	ExecutionID string                   `json:"executionId"`
	Call        int                      `json:"call"`
	Hooks       []string                 `json:"hooks"`
	Place       *agentproto.ExecutePlace `json:"place"`
	Cwd         string                   `json:"cwd"`
	routing
}

// execute runs an execute as a workflow of its own. An agent with hooks
// runs on the local host instead: its hooks are workflow code, which runs
// here.
func (p *Proxy) execute(ctx context.Context, params json.RawMessage) (any, error) {
	var ref executeRef
	if err := json.Unmarshal(params, &ref); err != nil {
		return nil, &agentproto.Error{Code: agentproto.CodeProtocol, Message: "agent.execute: " + err.Error()}
	}
	p.mu.Lock()
	init := p.init
	p.mu.Unlock()
	if init == nil {
		return p.forward(ctx, agentproto.MethodAgentExecute, params)
	}
	if len(ref.Hooks) > 0 {
		return p.executeBeside(ctx, ref, params)
	}
	p.mu.Lock()
	admit := p.admit
	p.mu.Unlock()
	release, err := admit.admit(ctx, ref, p.tail())
	if err != nil {
		return nil, err
	}
	defer release()
	t := ref.target(p.yaml.target)
	harness := t.Harness
	queue, seen := p.queueFor(ctx, harness, t.Provider)
	switch {
	case harness == "" && t.Provider == "" && len(t.Model) > 0:
		queue = p.routeByModel(ctx, t.Model)
	case harness != "" && t.Provider == ollama.Provider:
		if q := p.ollamaModelQueue(ctx, harness, t.Model); q != "" {
			queue, seen = q, true
		}
	}
	id, err := p.executeID(ref)
	if err != nil {
		return nil, &agentproto.Error{Code: agentproto.CodeInternal, Message: "agent execute on Temporal: " + err.Error()}
	}
	in := engine.AgentExecute{
		RunID:   p.run.ID,
		Request: engine.ExecuteRequest{Init: *init, Params: params, Agent: ref.ExecutionID + "/" + ref.AgentID, Call: ref.Call, Place: ref.Place, Queue: queue, Harness: harness, Unseen: !seen},
		Sticky:  p.begin(ref.AgentID, ref.Call, id),
	}
	reply, err := p.await(ctx, id, in)
	p.end(ref.AgentID, reply.Queue)
	if err != nil {
		return nil, executeFailure(p.run.ID, id, len(params), err)
	}
	p.seeBranch(ctx, ref.Cwd, reply.Branch)
	p.finished(id, in.Request, reply)
	p.tail().appendEvents(reply.Events)
	if reply.Error != nil {
		return nil, &jsonrpc.RemoteError{Code: reply.Error.Code, Message: reply.Error.Message, Data: reply.Error.Data}
	}
	return reply.Result, nil
}

// executeID is the workflow ID of an execute: derived from its journal key
// when it has one (a retried attempt of the code asking for it again gets
// the same ID), else unique.
func (p *Proxy) executeID(ref executeRef) (string, error) {
	if ref.Place != nil {
		return engine.ExecuteID(p.run.ID, ref.Place, ref.Call), nil
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return p.run.ID + "/execute/" + hex.EncodeToString(b[:]), nil
}

// await starts the execute's workflow, or attaches to the one of its ID
// already running or finished (a lost attempt of the code started it), and
// waits for its reply.
func (p *Proxy) await(ctx context.Context, id string, in engine.AgentExecute) (engine.ExecuteReply, error) {
	// Beside the start, not before it: the execute waits for no signal.
	p.record.started(engine.ExecuteStarted{ID: id})
	run, err := p.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       id,
		TaskQueue:                engine.ExecuteQueue(p.run.Queue),
		EnableEagerStart:         true,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowExecutionTimeout: executeTimeout,
	}, engine.WorkflowExecute, in)
	var reply engine.ExecuteReply
	if err == nil {
		m := startMirror(p.client, p.run.Converter, id, p.tail())
		reply, err = p.reply(ctx, run)
		// The events the mirror appended while the agent worked are not
		// appended again.
		reply.Events = m.stop(reply.Events)
	}
	if temporal.IsCanceledError(err) {
		// The run cancelled it before its activity answered.
		return cancelledReply(), nil
	}
	return reply, err
}

// executeTimeout bounds an execute workflow, should nothing cancel it.
const executeTimeout = 7 * 24 * time.Hour

// cancelledReply is the host's answer to a cancelled execute.
func cancelledReply() engine.ExecuteReply {
	return engine.ExecuteReply{Error: &engine.RPCError{Code: agentproto.RPCAgentError, Message: "the execute was cancelled", Data: []byte(`{"code":"cancelled"}`)}}
}

// begin notes the agent's execute in flight and returns the queue of the
// worker holding its conversation.
func (p *Proxy) begin(agentID string, call int, id string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.remote[agentID]
	if a == nil {
		a = &agent{}
		p.remote[agentID] = a
	}
	a.running, a.call = id, call
	return a.sticky
}

// end notes the agent's execute ended on the worker of queue ("": it did
// not run anywhere, and the conversation stays where it was).
func (p *Proxy) end(agentID, queue string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.remote[agentID]
	a.running = ""
	if queue != "" {
		a.sticky = queue
	}
}

// finished signals the execute's end to the run's workflow, with its
// journal entry: the run's journal then holds it for a retried attempt of
// the code (until the signal arrives, the execute's own history does).
func (p *Proxy) finished(id string, req engine.ExecuteRequest, reply engine.ExecuteReply) {
	f := engine.ExecuteFinished{ID: id, Queue: reply.Queue}
	if reply.Error == nil && req.Place != nil {
		e, err := executeEntry(time.Now(), req, reply)
		if err != nil {
			fmt.Fprintf(p.stderr, "stratos-temporal: the journal entry of execute %s: %v\n", id, err)
		} else {
			f.Entry = &e
		}
	}
	p.record.finished(f)
}

// signalRecord passes one Record to the run's workflow.
func (p *Proxy) signalRecord(ctx context.Context, rec engine.Record) error {
	return p.client.SignalWorkflow(ctx, p.run.ID, "", engine.SignalRecord, rec)
}

// cancelRemote cancels a remote agent's execute; false when the agent runs
// locally.
func (p *Proxy) cancelRemote(params json.RawMessage) bool {
	var c agentproto.CancelParams
	if json.Unmarshal(params, &c) != nil {
		return false
	}
	id, remote := p.toCancel(c)
	if id != "" {
		ctx, cancel := context.WithTimeout(context.Background(), signalTimeout)
		defer cancel()
		if err := p.client.CancelWorkflow(ctx, id, ""); err != nil {
			fmt.Fprintf(p.stderr, "stratos-temporal: cancel execute %s: %v\n", id, err)
		}
	}
	return remote
}

// toCancel is the execute workflow a cancel stops ("": none) and whether
// it names a remote agent. An orphaned cancel (the code's stratos run
// died, with its worker most likely) stops nothing: the execute belongs to
// the run, and the code's next attempt, on another worker, attaches to it;
// the run's workflow cancels it if the run ends instead.
func (p *Proxy) toCancel(c agentproto.CancelParams) (id string, remote bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.remote[c.AgentID]
	if a == nil {
		return "", false
	}
	if a.running == "" || (c.Call != 0 && c.Call != a.call) || c.Orphaned {
		return "", true
	}
	return a.running, true
}
