// Package proxy is the agent host of workflow code that runs on the
// Temporal engine: to the SDK it is stratos-agent serve (the same JSON-RPC,
// on stdin/stdout), and it is one, a local stratos-agent it passes every
// message to, except agent executes: those become updates of the run's
// Temporal workflow, which runs them on agent workers (or answers them from
// its record when a lost attempt of the code finished them). It also
// passes the code's journal, as the SDK writes it, to the workflow.
package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"

	"go.temporal.io/sdk/client"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// EnvRun names the run's Temporal workflow ID; the worker that runs the
// code sets it for the proxy.
const EnvRun = "STRATOS_TEMPORAL_RUN"

// Proxy is one workflow code's agent host.
type Proxy struct {
	client     client.Client
	runID      string
	agentQueue string
	host       string // the local stratos-agent
	stderr     io.Writer

	up, down *jsonrpc.Conn

	mu      sync.Mutex
	init    *agentproto.InitializeParams
	remote  map[string]string // agent ID → the workflow's key of the agent, once it ran remotely
	polled  map[string]bool   // harness queues seen polled
	journal *tail
}

// New returns the proxy of run, passing what stays local to the
// stratos-agent at host.
func New(c client.Client, runID, agentQueue, host string, stderr io.Writer) *Proxy {
	return &Proxy{client: c, runID: runID, agentQueue: agentQueue, host: host, stderr: stderr, remote: map[string]string{}, polled: map[string]bool{}}
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
	return serveErr
}

// Notifications each side sends (the rest are requests).
var notifications = map[string]bool{
	agentproto.MethodAgentCancel: true, agentproto.MethodDecisionCancel: true, agentproto.MethodEvent: true,
}

// fromHost passes the local host's messages (events, hooks) to the SDK.
func (p *Proxy) fromHost(ctx context.Context, method string, params json.RawMessage) (any, error) {
	if notifications[method] {
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
		res, err := p.forward(ctx, method, params)
		if err == nil {
			p.started(init)
		}
		return res, err
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
func (p *Proxy) started(init agentproto.InitializeParams) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.init != nil {
		return
	}
	p.init = &init
	dir := init.RunDir
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, ".stratos", "runs", init.ExecutionID)
		}
	}
	p.journal = startTail(filepath.Join(dir, "journal.jsonl"), filepath.Join(dir, "events.jsonl"), p.signalEntry, p.stderr)
}

func (p *Proxy) tail() *tail {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.journal
}

// executeRef is what the proxy reads of an execute's params.
type executeRef struct {
	AgentID     string                   `json:"agentId"`
	ExecutionID string                   `json:"executionId"`
	Call        int                      `json:"call"`
	Hooks       []string                 `json:"hooks"`
	Place       *agentproto.ExecutePlace `json:"place"`
	routing
}

// execute runs an execute through the run's workflow. An agent with hooks
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
	if len(ref.Hooks) > 0 || init == nil {
		return p.forward(ctx, agentproto.MethodAgentExecute, params)
	}
	harness := ref.harness()
	queue, seen := p.queueFor(ctx, harness)
	key := ref.ExecutionID + "/" + ref.AgentID
	p.mu.Lock()
	p.remote[ref.AgentID] = key
	p.mu.Unlock()
	req := engine.ExecuteRequest{Init: *init, Params: params, Agent: key, Call: ref.Call, Place: ref.Place, Queue: queue, Harness: harness, Unseen: !seen}
	handle, err := p.client.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: p.runID, UpdateName: engine.UpdateExecute, Args: []any{req}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	var reply engine.ExecuteReply
	if err == nil {
		err = handle.Get(ctx, &reply)
	}
	if err != nil {
		return nil, &agentproto.Error{Code: agentproto.CodeInternal, Message: fmt.Sprintf("agent execute on Temporal (run %s): %v", p.runID, err)}
	}
	p.tail().appendEvents(reply.Events)
	if reply.Error != nil {
		return nil, &jsonrpc.RemoteError{Code: reply.Error.Code, Message: reply.Error.Message, Data: reply.Error.Data}
	}
	return reply.Result, nil
}

// cancelRemote cancels a remote agent's execute; false when the agent runs
// locally.
func (p *Proxy) cancelRemote(params json.RawMessage) bool {
	var c agentproto.CancelParams
	if json.Unmarshal(params, &c) != nil {
		return false
	}
	p.mu.Lock()
	key := p.remote[c.AgentID]
	p.mu.Unlock()
	if key == "" {
		return false
	}
	_ = p.client.SignalWorkflow(context.Background(), p.runID, "", engine.SignalCancelAgent, engine.CancelAgent{Agent: key, Call: c.Call})
	return true
}
