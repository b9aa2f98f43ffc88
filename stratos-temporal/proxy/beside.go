package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
	"github.com/stratoscli/stratos/stratos-temporal/repository"
)

// EnvPublish names the remote of the run's repository when the code runs
// in a worker's checkout of it (Run.Publish); the worker that runs the code
// sets it for the proxy.
const EnvPublish = "STRATOS_TEMPORAL_PUBLISH"

// worktreeAcquired is how a worktree.acquired event begins to show in an
// event's JSON, looked for before the event is decoded: the proxy passes
// every event of the local host, and decodes only these.
var worktreeAcquired = []byte(`"type":"` + eventapi.TypeWorktreeAcquired + `"`)

// askEvents is the SDK's initialize for the local host: when the work of
// agents beside the code is published, it asks for the host's events
// (noteWorktree reads their worktrees there), whether the SDK asked for
// them or not; those the SDK did not ask for go no further.
func (p *Proxy) askEvents(init agentproto.InitializeParams, params json.RawMessage) any {
	p.mu.Lock()
	p.eventsHeld = p.run.Publish != "" && !init.Events
	p.mu.Unlock()
	if p.run.Publish == "" || init.Events {
		return params
	}
	init.Events = true
	return init
}

// sdkEvents reports whether the SDK asked for the host's events.
func (p *Proxy) sdkEvents() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.eventsHeld
}

// noteWorktree remembers the worktree an agent beside the code acquired,
// from the local host's event, when that agent's work is to be published.
func (p *Proxy) noteWorktree(params json.RawMessage) {
	if p.run.Publish == "" || !bytes.Contains(params, worktreeAcquired) {
		return
	}
	var e eventapi.Event
	if err := json.Unmarshal(params, &e); err != nil || e.AgentID == "" {
		return
	}
	if wt, ok := e.Details.(*eventapi.WorktreeAcquired); ok {
		p.mu.Lock()
		p.worktrees[e.AgentID] = *wt
		p.mu.Unlock()
	}
}

// executeBeside runs an execute of an agent with hooks on the local host
// (its hooks are workflow code, which runs here). When the code runs in
// a worker's checkout of the run's repository, the agent's worktree work
// is then committed and pushed to its branch on the remote, as an agent
// worker does after each execute: the checkout is this worker's, and no
// work may exist only on one machine. Work that did not reach the remote
// fails the execute, unless it failed already.
func (p *Proxy) executeBeside(ctx context.Context, ref executeRef, params json.RawMessage) (any, error) {
	res, err := p.forward(ctx, agentproto.MethodAgentExecute, params)
	if p.run.Publish == "" {
		return res, err
	}
	p.mu.Lock()
	wt, ok := p.worktrees[ref.AgentID]
	p.mu.Unlock()
	if !ok {
		return res, err
	}
	work := repository.WorkIn(wt, p.run.Publish, p.run.ID,
		fmt.Sprintf("stratos: %s, execute %d (run %s, beside the code)", ref.Name, ref.Call, p.run.ID))
	if _, perr := repository.Publish(context.WithoutCancel(ctx), work); perr != nil {
		fmt.Fprintf(p.stderr, "stratos: run %s: agent %q: %v\n", p.run.ID, ref.Name, perr)
		if err == nil {
			e := engine.AgentError(agentproto.CodeExecution, fmt.Sprintf("agent %q beside the workflow code: %v", ref.Name, perr), repository.ErrorCode(perr))
			return nil, &jsonrpc.RemoteError{Code: e.Code, Message: e.Message, Data: e.Data}
		}
	}
	return res, err
}
