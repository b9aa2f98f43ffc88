package codex

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/adapter/process"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// initializeTimeout bounds the app-server's start and thread/start (under a
// second measured; much more on a cold, loaded machine).
const initializeTimeout = 90 * time.Second

// session is one agent conversation on Codex: one app-server process and
// one thread, both started by the first Execute.
type session struct {
	opts    Options
	spec    adapter.Spec
	emit    func(adapter.Event)
	hooks   adapter.Hooks
	removed []setting
	log     hclog.Logger

	// Fixed by Initialize.
	ready    bool
	bin      binary
	env      []string // the app-server's environment
	home     string   // the isolated CODEX_HOME, removed by Close
	provider provider
	model    string // the native model; "" = Codex's default
	mcp      map[string]map[string]any
	hookSrv  *hookServer
	outcomes *outcomes

	mu       sync.Mutex
	conn     *conn
	threadID string
	// threadModel is the model thread/start or thread/resume reported.
	threadModel string
	turn        *turn
	busy        bool
	closed      bool
}

func newSession(opts Options, spec adapter.Spec, emit func(adapter.Event), hooks adapter.Hooks, removed []setting) *session {
	return &session{opts: opts, spec: spec, emit: emit, hooks: hooks, removed: removed,
		log: opts.Log.Named("codex").With("agent", spec.Name), outcomes: newOutcomes()}
}

// Initialize checks the harness once: binary, provider and its
// credentials, the model from the catalog, MCP configuration; then it
// prepares the isolated Codex home and, for an agent with tool hooks, the
// hook server. No app-server starts here: it starts at the first Execute.
func (s *session) Initialize(ctx context.Context) error {
	env := s.opts.Environ()
	bin, err := findBinary(env)
	if err != nil {
		return err
	}
	if s.spec.Provider == providerOllama {
		return s.initializeOllama(ctx, bin, env)
	}
	prov, err := s.resolveProvider(ctx, bin, env)
	if err != nil {
		return err
	}
	model, err := s.resolveModel(ctx)
	if err != nil {
		return err
	}
	servers, err := s.opts.MCPServers(s.spec.WorkflowDir, s.spec.AllowedMcps)
	if err != nil {
		return err
	}
	return s.prepare(bin, env, prov, model, mcpTables(servers))
}

// resolveProvider picks how Codex reaches the model: azure from the
// user's table; otherwise an API key from the environment, else the
// user's saved Codex login, checked with `codex login status`; either at
// OPENAI_BASE_URL when it is set.
func (s *session) resolveProvider(ctx context.Context, bin binary, env []string) (provider, error) {
	switch s.spec.Provider {
	case providerAzure:
		return azureProvider(env)
	case "", providerOpenAI:
	default:
		return provider{}, agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: provider %q is not supported by harness codex (supported: openai, azure)",
			s.spec.Name, s.spec.Provider).WithDetails(map[string]any{"harness": Harness, "provider": s.spec.Provider})
	}
	if p, ok := keyProvider(env); ok {
		return p, nil
	}
	home, err := userCodexHome(env)
	if err != nil {
		return provider{}, rejection.New(rejection.Authentication, "harness codex: cannot locate the Codex home: %v", err)
	}
	if err := checkLogin(ctx, bin.path, env, home); err != nil {
		return provider{}, err
	}
	return loginProvider(env), nil
}

// resolveModel is the native model of the session's model (the host's
// selector gives each adapter at most one): its native ID on the agent's
// provider, from the catalog. "" without a model: Codex's own default.
func (s *session) resolveModel(ctx context.Context) (string, error) {
	if len(s.spec.Models) == 0 {
		return "", nil
	}
	prov := s.spec.Provider
	if prov == providerOpenAI {
		prov = ""
	}
	cands, err := s.opts.Catalog.Candidates(ctx, catalog.Query{Models: s.spec.Models[:1], Harness: Harness, Provider: prov})
	if err != nil {
		return "", err
	}
	if len(cands) == 0 {
		return "", rejection.New(rejection.ModelUnavailable, "agent %q: model %s cannot be used through codex", s.spec.Name, s.spec.Models[0]).
			WithDetails(map[string]any{"harness": Harness, "model": s.spec.Models[0]})
	}
	return cands[0].NativeModel(), nil
}

// prepare creates the isolated Codex home and, when the agent has tool
// hooks, the hook server, and records what Execute needs: for a resumed
// run's agent, the thread to resume.
func (s *session) prepare(bin binary, env []string, prov provider, model string, servers map[string]map[string]any) error {
	if err := checkResumedThread(s.spec); err != nil {
		closeProxy(prov)
		return err
	}
	home, err := s.makeHome(env, prov)
	if err != nil {
		closeProxy(prov)
		return err
	}
	childEnv := withEnv(env, "CODEX_HOME", home)
	for k, v := range prov.Env {
		childEnv = withEnv(childEnv, k, v)
	}
	// The hook server (an HTTP MCP server) serves only the author's tool
	// hooks: an agent without any gets none, which spares the host the
	// listener and the memory its code touches.
	var hs *hookServer
	if adapter.HasToolHooks(s.hooks) {
		if hs, err = startHookServer(s.preToolUse, s.postToolUse); err != nil {
			os.RemoveAll(home)
			closeProxy(prov)
			return agentproto.Errorf(agentproto.CodeInitialization, "harness codex: %v", err).Wrap(err)
		}
		childEnv = withEnv(childEnv, hookTokenVar, hs.token)
	}
	if bin.helpers != "" {
		childEnv = withEnv(childEnv, "PATH", bin.helpers+string(filepath.ListSeparator)+lookupEnv(env, "PATH"))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releasePreparedLocked()
	s.ready, s.bin, s.env, s.home, s.provider = true, bin, childEnv, home, prov
	s.model, s.mcp, s.hookSrv, s.threadID = model, servers, hs, resumedThread(s.spec)
	return nil
}

// makeHome creates the isolated Codex home (Stratos's own; the user's is
// never used except for the Azure table and a link to a saved login), its
// rollouts kept in the state directory.
func (s *session) makeHome(env []string, prov provider) (string, error) {
	home, err := os.MkdirTemp("", "stratos-codex-")
	if err != nil {
		return "", agentproto.Errorf(agentproto.CodeInitialization, "harness codex: %v", err).Wrap(err)
	}
	if prov.LinkLogin {
		user, _ := userCodexHome(env)
		if err := linkLogin(home, user); err != nil {
			os.RemoveAll(home)
			return "", agentproto.Errorf(agentproto.CodeInitialization, "harness codex: link the saved login: %v", err).Wrap(err)
		}
	}
	if err := keepRollouts(home, s.spec.StateDir); err != nil {
		os.RemoveAll(home)
		return "", agentproto.Errorf(agentproto.CodeInitialization, "harness codex: keep the thread in %s: %v", s.spec.StateDir, err).Wrap(err)
	}
	return home, nil
}

// releasePreparedLocked frees what an earlier Initialize prepared.
func (s *session) releasePreparedLocked() {
	closeProxy(s.provider)
	s.provider.proxy = nil
	if s.hookSrv != nil {
		_ = s.hookSrv.close()
		s.hookSrv = nil
	}
	if s.home != "" {
		os.RemoveAll(s.home)
		s.home = ""
	}
}

func (s *session) closedError() error {
	return agentproto.Errorf(agentproto.CodeContextClosed, "agent %q: the codex session is closed", s.spec.Name)
}

// ensureThread returns the running app-server and the session's thread,
// starting either when missing. An app-server that died between prompts
// is restarted and the thread resumed from its rollout; so is a resumed
// run's thread, from the state directory.
func (s *session) ensureThread(ctx context.Context) (*conn, string, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, "", s.closedError()
	}
	if !s.ready {
		s.mu.Unlock()
		return nil, "", agentproto.Errorf(agentproto.CodeInitialization, "agent %q: codex session used before Initialize", s.spec.Name)
	}
	c, tid := s.conn, s.threadID
	if c != nil {
		select {
		case <-c.exited():
			s.log.Warn("codex app-server exited between prompts; restarting it on the same thread", "error", c.p.ExitError())
			c, s.conn = nil, nil
		default:
		}
	}
	s.mu.Unlock()
	ictx, cancel := context.WithTimeout(ctx, initializeTimeout)
	defer cancel()
	fresh := c == nil
	if fresh {
		var err error
		if c, err = s.startServer(ictx); err != nil {
			return nil, "", err
		}
	}
	if tid != "" && !fresh {
		return c, tid, nil
	}
	tid, err := s.openThread(ictx, c, tid)
	if err != nil {
		if fresh {
			_ = s.stopConn(c)
		}
		return nil, "", err
	}
	return c, tid, nil
}

// startServer starts `codex app-server` and completes its initialize
// handshake.
func (s *session) startServer(ctx context.Context) (*conn, error) {
	obs := newObserver(s.emit, s.backend)
	c, err := dial(process.Spec{Name: "codex", Path: s.bin.path, Args: []string{"app-server"}, Dir: s.spec.WorkingDirectory,
		Env: s.env, Log: s.log}, rpcHandlers{notify: func(m string, p json.RawMessage) { s.onNotification(obs, m, p) },
		request: s.onServerRequest})
	if err != nil {
		return nil, agentproto.Errorf(agentproto.CodeInitialization, "agent %q: harness codex: %v", s.spec.Name, err).Wrap(err)
	}
	init := map[string]any{"clientInfo": map[string]any{"name": "stratos_agent", "title": "Stratos", "version": "1"},
		"capabilities": map[string]any{"experimentalApi": true, "optOutNotificationMethods": []string{
			"account/rateLimits/updated", "thread/readState/changed", "remoteControl/status/changed"}}}
	err = c.call(ctx, "initialize", init, nil)
	if err == nil {
		err = c.notifyServer("initialized")
	}
	if err != nil {
		_ = s.stopConn(c)
		return nil, s.startError(c, err)
	}
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.conn = c
	}
	s.mu.Unlock()
	if closed { // Close ran while the app-server was starting
		_ = s.stopConn(c)
		return nil, s.closedError()
	}
	return c, nil
}

func (s *session) startError(c *conn, err error) error {
	if errors.Is(err, errExited) {
		err = c.p.ExitError()
	}
	return agentproto.Errorf(agentproto.CodeInitialization, "agent %q: harness codex did not start: %v", s.spec.Name, err).Wrap(err)
}

// openThread starts the session's thread for the current candidate, or
// resumes tid: after an app-server restart, or a resumed run's thread.
func (s *session) openThread(ctx context.Context, c *conn, tid string) (string, error) {
	s.mu.Lock()
	cfg := s.threadConfigLocked()
	s.mu.Unlock()
	params, method := cfg.params(), "thread/start"
	if tid != "" {
		params["threadId"], params["excludeTurns"], method = tid, true, "thread/resume"
	}
	var res struct {
		Thread struct {
			ID string `json:"id"`
		} `json:"thread"`
		Model string `json:"model"`
	}
	if err := c.call(ctx, method, params, &res); err != nil {
		if errors.Is(err, errExited) {
			err = c.p.ExitError()
		}
		return "", agentproto.Errorf(agentproto.CodeInitialization, "agent %q: harness codex refused %s: %v", s.spec.Name, method, err).Wrap(err)
	}
	s.mu.Lock()
	s.threadID = res.Thread.ID
	if res.Model != "" {
		s.threadModel = res.Model
	}
	s.mu.Unlock()
	return res.Thread.ID, nil
}

// backend is the catalog provider the session's turns go to — the agent's
// provider, else OpenAI (an API key, the saved login, or OPENAI_BASE_URL
// standing in for the OpenAI API) — and the model Codex reported for the
// thread (else the native model asked for).
func (s *session) backend() (provider, model string) {
	provider = s.spec.Provider
	if provider == "" {
		provider = providerOpenAI
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.threadModel != "" {
		return provider, s.threadModel
	}
	return provider, s.model
}

func (s *session) threadConfigLocked() threadConfig {
	var hooks *hookEndpoint
	if s.hookSrv != nil {
		hooks = &s.hookSrv.endpoint
	}
	return threadConfig{spec: s.spec, provider: s.provider, model: s.model, mcp: s.mcp,
		hooks: hooks, removed: s.removed, developer: developerInstructions(s.spec)}
}

// stopConn shuts an app-server down: stdin closed (Codex exits and kills
// its sandboxes), then SIGTERM and SIGKILL to its process group.
func (s *session) stopConn(c *conn) error {
	s.mu.Lock()
	if s.conn == c {
		s.conn = nil
	}
	s.mu.Unlock()
	return c.p.Shutdown(context.Background())
}
