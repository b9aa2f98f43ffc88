// Package host is the agent host of one top-level execution: it serves the
// SDK's agent.* requests (agentproto), owns every agent session of that
// execution and its children, resolves configurations, renders prompts,
// enforces admission limits, records events and calls the author's hooks
// back through the SDK.
package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpclient"
	"github.com/stratoscli/stratos/shared/mcpdecl"
	"github.com/stratoscli/stratos/shared/settings"
	"github.com/stratoscli/stratos/shared/version"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
	"github.com/stratoscli/stratos/stratos-agent/admission"
	"github.com/stratoscli/stratos/stratos-agent/agentconfig"
	"github.com/stratoscli/stratos/stratos-agent/decision"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
	"github.com/stratoscli/stratos/stratos-agent/mcprelay"
)

// Peer is the SDK end of the connection.
type Peer interface {
	Call(ctx context.Context, method string, params, result any) error
	Notify(method string, params any) error
}

// The agent host's Peer is the JSON-RPC connection to the SDK.
var _ Peer = (*jsonrpc.Conn)(nil)

// Options configure a Host.
type Options struct {
	Log hclog.Logger
	// Home is the user's home directory (~/.stratos lives there).
	Home string
	// Harnesses registers the harnesses, given the options every adapter
	// factory takes from the host; nil: harnesses.Builtin.
	Harnesses func(adapter.Options) []adapter.Harness
	// Stderr receives the diagnostics of the tools the host executes
	// (stratos-worktree); nil discards them.
	Stderr io.Writer
	// Candidates orders harness/model candidates for agents without an
	// explicit harness; nil: stratos-models candidates.
	Candidates candidatesFunc
	// Prices finds the catalog price of an explicit harness's model on the
	// provider the agent names; nil: stratos-models resolve.
	Prices priceFunc
	// MCPTimeout bounds each direct MCP request; zero means
	// mcpclient.RequestTimeout (five minutes).
	MCPTimeout time.Duration
	// ElicitTimeout bounds the wait for a workflow's elicitation handler;
	// zero means ElicitTimeout.
	ElicitTimeout time.Duration
	// NativeListBound bounds each harness's own model list during
	// selection; zero means nativeListBound.
	NativeListBound time.Duration
	// Getenv reads the environment decisions consult (OLLAMA_HOST) and
	// agentproto.TestCaseEnv; nil: os.Getenv.
	Getenv func(string) string
}

// Host serves one top-level execution.
type Host struct {
	log        hclog.Logger
	home       string
	harnesses  map[string]adapter.Harness
	registry   *harnesses.Registry
	candidates candidatesFunc
	prices     priceFunc
	validator  *agentconfig.Validator
	peer       Peer
	stderr     io.Writer
	// testCase is the test case the host's run is (nil outside one):
	// unless it allows real harnesses, every agent not on the test harness
	// is refused, and its worktrees' warnings are not printed (testcase.go).
	testCase *agentproto.TestCase
	// nativeBound bounds each harness's own model list (native.go).
	nativeBound time.Duration
	native      nativeCache

	mu          sync.Mutex
	initialized bool
	runDir      string // the run record, set by initialize
	pool        *admission.Pool
	events      *recorder
	sessions    map[string]*session
	closedExecs map[string]bool
	workflows   map[string]*agentconfig.Workflow
	worktrees   *worktrees // set by initialize
	mcp         *directClients
	// relay carries harness requests to OAuth MCP servers with a fresh token.
	relay *mcprelay.Relay
	// asker answers decisions; decisions are the running ones.
	asker     *decision.Asker
	decisions decisions
}

// New returns a host that talks to peer (SetPeer may supply it later).
func New(opts Options) (*Host, error) {
	if opts.Log == nil {
		opts.Log = hclog.NewNullLogger()
	}
	tokens := mcpauth.Tokens{Store: mcpauth.Open(filepath.Join(opts.Home, ".stratos")), HTTPClient: mcpauth.NewHTTPClient()}
	relay := mcprelay.New(tokens, opts.Log)
	if opts.Harnesses == nil {
		opts.Harnesses = harnesses.Builtin
	}
	ao := adapter.Options{Log: opts.Log, MCPServers: mcpconfig.WithOAuth(relayOAuth(relay))}
	registry, err := harnesses.New(opts.Harnesses(ao)...)
	if err != nil {
		return nil, err
	}
	v, err := agentconfig.NewValidator(registry.Names(), registry.Tools())
	if err != nil {
		return nil, err
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.Candidates == nil {
		opts.Candidates = catalogCandidates(opts.Stderr, registry.Rules())
	}
	if opts.Prices == nil {
		opts.Prices = catalogPrice()
	}
	if opts.MCPTimeout <= 0 {
		opts.MCPTimeout = mcpclient.RequestTimeout
	}
	if opts.NativeListBound <= 0 {
		opts.NativeListBound = nativeListBound
	}
	h := &Host{log: opts.Log, home: opts.Home, harnesses: registry.Map(), registry: registry, validator: v, stderr: opts.Stderr, candidates: opts.Candidates, prices: opts.Prices,
		nativeBound: opts.NativeListBound,
		sessions:    map[string]*session{}, closedExecs: map[string]bool{}, workflows: map[string]*agentconfig.Workflow{}}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	h.testCase = agentproto.ParseTestCase(opts.Getenv(agentproto.TestCaseEnv))
	h.asker = &decision.Asker{HTTP: &http.Client{}, Getenv: opts.Getenv, Catalog: decision.SiblingCatalog(opts.Stderr)}
	h.mcp = newDirectClients(opts.MCPTimeout, opts.Stderr, h.record)
	h.mcp.tokens, h.relay = &tokens, relay
	h.mcp.sampling = sampler{asker: h.asker, testCase: h.testCase}
	h.mcp.peer = func() Peer { return h.peer }
	if opts.ElicitTimeout > 0 {
		h.mcp.elicitTimeout = opts.ElicitTimeout
	}
	return h, nil
}

// relayOAuth sends a harness to an OAuth MCP server through the relay,
// which renews the token before each of the harness's requests.
func relayOAuth(relay *mcprelay.Relay) mcpconfig.OAuth {
	return func(workflow string, server mcpdecl.Server, out *mcpconfig.Server) error {
		u, err := relay.Route(context.Background(), workflow, server)
		if err != nil {
			return err
		}
		out.URL = u
		return nil
	}
}

// SetPeer sets the SDK end; call it before serving.
func (h *Host) SetPeer(p Peer) { h.peer = p }

// Handle is the jsonrpc.Handler of the host.
func (h *Host) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	if method == agentproto.MethodInitialize {
		var p agentproto.InitializeParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		return h.initialize(p)
	}
	h.mu.Lock()
	ready := h.initialized
	h.mu.Unlock()
	if !ready {
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "%s before initialize", method)
	}
	switch method {
	case agentproto.MethodAgentExecute:
		var p agentproto.ExecuteParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		return h.execute(ctx, p)
	case agentproto.MethodAgentCancel:
		var p agentproto.CancelParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		h.sessionFor(p.AgentID).requestCancel(p.Call)
		return nil, nil
	case agentproto.MethodAgentClose:
		var p agentproto.AgentRef
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		return h.closeAgents(ctx, func(s *session) bool { return s.id == p.AgentID })
	case agentproto.MethodExecutionClose:
		var p agentproto.ExecutionRef
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		h.mu.Lock()
		h.closedExecs[p.ExecutionID] = true
		h.mu.Unlock()
		h.decisions.cancelMatching(func(id string) bool { return id == p.ExecutionID })
		// A server that does not stop cleanly is stopped anyway (its process
		// group is killed); that is worth a log line, not a failed execution.
		if err := h.mcp.closeMatching(func(c *directClient) bool { return c.executionID == p.ExecutionID }); err != nil {
			h.log.Warn("closing MCP clients", "execution", p.ExecutionID, "error", err)
		}
		return h.closeAgents(ctx, func(s *session) bool { return s.executionID == p.ExecutionID })
	case agentproto.MethodMCPConnect, agentproto.MethodMCPCall, agentproto.MethodMCPClose:
		return h.handleMCP(ctx, method, params)
	case agentproto.MethodMCPResources, agentproto.MethodMCPResourceTemplates, agentproto.MethodMCPReadResource,
		agentproto.MethodMCPPrompts, agentproto.MethodMCPGetPrompt, agentproto.MethodMCPSubscribe, agentproto.MethodMCPUnsubscribe:
		return h.mcp.serveFeature(ctx, method, params)
	case agentproto.MethodMCPAuthenticate:
		var p agentproto.MCPAuthenticateParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		return struct{}{}, h.mcp.authenticate(ctx, p.Workflow)
	case agentproto.MethodDecisionAsk:
		var p agentproto.DecisionParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		return h.decide(ctx, p)
	case agentproto.MethodDecisionCancel:
		var p agentproto.DecisionRef
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		h.decisions.cancelOne(p.DecisionID)
		return nil, nil
	case agentproto.MethodShutdown:
		h.decisions.cancelMatching(func(string) bool { return true })
		_ = h.mcp.closeMatching(func(*directClient) bool { return true })
		_, err := h.closeAgents(ctx, func(*session) bool { return true })
		h.releaseWorktrees(ctx)
		return struct{}{}, err
	}
	return nil, agentproto.Errorf(agentproto.CodeProtocol, "unknown method %q", method)
}

func decodeParams(raw json.RawMessage, dst any) error {
	if err := json.Unmarshal(raw, dst); err != nil {
		return agentproto.Errorf(agentproto.CodeProtocol, "invalid params: %v", err)
	}
	return nil
}

func (h *Host) initialize(p agentproto.InitializeParams) (*agentproto.InitializeResult, error) {
	if p.ProtocolVersion != agentproto.ProtocolVersion {
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "protocol version %d, this stratos-agent speaks %d: the SDK and stratos-agent come from different Stratos versions", p.ProtocolVersion, agentproto.ProtocolVersion)
	}
	if p.ExecutionID == "" {
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "initialize: executionId is required")
	}
	stratosHome := filepath.Join(h.home, ".stratos")
	var limits agentproto.Settings
	if p.Settings != nil {
		limits = *p.Settings
	} else {
		s, err := settings.Load(settings.Path(stratosHome))
		if err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "%v", err).Wrap(err)
		}
		limits = agentproto.Settings{MaxConcurrent: s.Agents.MaxConcurrent, MaxOutstanding: s.Agents.MaxOutstanding,
			Decisions: &agentproto.Limits{MaxConcurrent: s.Decisions.MaxConcurrent, MaxOutstanding: s.Decisions.MaxOutstanding}}
	}
	if limits.Decisions == nil {
		limits.Decisions = &agentproto.Limits{MaxConcurrent: settings.DefaultDecisionsMaxConcurrent, MaxOutstanding: settings.DefaultDecisionsMaxOutstanding}
	}
	if limits.MaxConcurrent < 1 || limits.MaxOutstanding < 1 || limits.Decisions.MaxConcurrent < 1 || limits.Decisions.MaxOutstanding < 1 {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "settings: maxConcurrent and maxOutstanding must be positive, got %d and %d (decisions: %d and %d)",
			limits.MaxConcurrent, limits.MaxOutstanding, limits.Decisions.MaxConcurrent, limits.Decisions.MaxOutstanding)
	}
	runDir := p.RunDir
	if runDir == "" {
		runDir = filepath.Join(stratosHome, "runs", p.ExecutionID)
	}
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		return nil, agentproto.Errorf(agentproto.CodeInternal, "run record: %v", err)
	}
	var notify func(eventapi.Event)
	if p.Events {
		notify = func(e eventapi.Event) {
			if err := h.peer.Notify(agentproto.MethodEvent, e); err != nil {
				h.log.Debug("event notification failed", "error", err)
			}
		}
	}
	path := filepath.Join(runDir, EventsFileName)
	rec, err := openRecorder(path, notify, func(err error) { h.log.Warn("event not recorded", "error", err) })
	if err != nil {
		return nil, agentproto.Errorf(agentproto.CodeInternal, "run record: %v", err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.initialized {
		_ = rec.close()
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "initialize sent twice")
	}
	h.initialized = true
	h.runDir = runDir
	h.pool = admission.New(limits.MaxConcurrent, limits.MaxOutstanding)
	h.asker.Slots = admission.NewWith(limits.Decisions.MaxConcurrent, limits.Decisions.MaxOutstanding, decisionRejection)
	h.events = rec
	h.worktrees = newWorktrees(p.ExecutionID, h.log, worktreeToolStderr(h.testCase, h.stderr), h.record)
	h.log.Debug("initialized", "execution", p.ExecutionID, "maxConcurrent", limits.MaxConcurrent, "maxOutstanding", limits.MaxOutstanding)
	return &agentproto.InitializeResult{ProtocolVersion: agentproto.ProtocolVersion, Version: version.Version, Settings: limits, EventsFile: path}, nil
}

// sessionFor returns the session of agent id, creating it when this is the
// first message about the agent (a cancel may overtake the first execute).
func (h *Host) sessionFor(id string) *session {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.sessions[id]
	if s == nil {
		s = &session{h: h, id: id}
		h.sessions[id] = s
	}
	return s
}

// closeAgents closes the matching sessions concurrently, each getting its
// attempt even when another fails; it returns how many released harness
// resources and the joined close failures.
func (h *Host) closeAgents(ctx context.Context, match func(*session) bool) (*agentproto.CloseResult, error) {
	h.mu.Lock()
	var targets []*session
	for id, s := range h.sessions {
		if match(s) {
			targets = append(targets, s)
			delete(h.sessions, id)
		}
	}
	h.mu.Unlock()
	sort.Slice(targets, func(i, j int) bool { return targets[i].id < targets[j].id })
	errs := make([]error, len(targets))
	released := make([]bool, len(targets))
	var wg sync.WaitGroup
	for i, s := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			released[i], errs[i] = s.close(ctx)
		}()
	}
	wg.Wait()
	res := &agentproto.CloseResult{}
	for _, r := range released {
		if r {
			res.Closed++
		}
	}
	if err := errors.Join(errs...); err != nil {
		return res, agentproto.Errorf(agentproto.CodeExecution, "closing agents: %v", err).Wrap(err)
	}
	return res, nil
}

// Close closes every session and the event record. It is what happens when
// the SDK shuts the host down or its stdin closes.
func (h *Host) Close(ctx context.Context) error {
	h.decisions.cancelMatching(func(string) bool { return true })
	err := h.mcp.closeMatching(func(*directClient) bool { return true })
	_, aerr := h.closeAgents(ctx, func(*session) bool { return true })
	err = errors.Join(err, aerr, h.relay.Close())
	h.releaseWorktrees(ctx)
	h.mu.Lock()
	rec := h.events
	h.events = nil
	h.mu.Unlock()
	if rec != nil {
		if cerr := rec.close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}
	return err
}

// releaseWorktrees releases the worktrees the agents acquired, once every
// session is closed: the top-level execution and its descendants are done.
func (h *Host) releaseWorktrees(ctx context.Context) {
	h.mu.Lock()
	w := h.worktrees
	h.mu.Unlock()
	if w != nil {
		w.releaseAll(ctx)
	}
}

// workflow returns the parsed workflow.yaml of dir, cached for the host's
// lifetime: one execution sees one configuration.
func (h *Host) workflow(ref agentproto.WorkflowRef) (*agentconfig.Workflow, error) {
	h.mu.Lock()
	w := h.workflows[ref.Dir]
	h.mu.Unlock()
	if w != nil {
		return w, nil
	}
	if ref.Dir == "" || !filepath.IsAbs(ref.Dir) {
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "workflow.dir must be an absolute path, got %q", ref.Dir)
	}
	w, problems := agentconfig.LoadWorkflow(h.validator, ref.Dir)
	if len(problems) > 0 {
		lines := ""
		details := make([]map[string]any, len(problems))
		for i, p := range problems {
			if i > 0 {
				lines += "; "
			}
			lines += p.String()
			details[i] = map[string]any{"file": p.File, "path": p.Path, "message": p.Message}
		}
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "invalid agent configuration: %s", lines).
			WithDetails(map[string]any{"problems": details})
	}
	h.mu.Lock()
	h.workflows[ref.Dir] = w
	h.mu.Unlock()
	return w, nil
}

func (h *Host) record(e eventapi.Event) {
	h.mu.Lock()
	rec := h.events
	h.mu.Unlock()
	if rec != nil {
		rec.record(e)
	}
}

// String describes the host for logs.
func (h *Host) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return fmt.Sprintf("agent host (%d sessions)", len(h.sessions))
}

// handleMCP serves the direct MCP client methods.
func (h *Host) handleMCP(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case agentproto.MethodMCPConnect:
		var p agentproto.MCPConnectParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		h.mu.Lock()
		closed := h.closedExecs[p.ExecutionID]
		h.mu.Unlock()
		if closed {
			return nil, agentproto.Errorf(agentproto.CodeContextClosed, "execution %s has ended", p.ExecutionID)
		}
		return h.mcp.connect(ctx, p)
	case agentproto.MethodMCPCall:
		var p agentproto.MCPCallParams
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		return h.mcp.call(ctx, p)
	}
	var p agentproto.MCPClientRef
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	return struct{}{}, h.mcp.closeMatching(func(c *directClient) bool { return c.id == p.ClientID })
}
