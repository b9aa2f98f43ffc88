package opencode

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// initializeTimeout bounds Initialize: the server's start (seconds) and
// the first requests on its fresh instance (up to a few seconds more).
const initializeTimeout = 3 * time.Minute

// session is one agent conversation on OpenCode: one server, one event
// stream for its directory and one OpenCode session, all started by
// Initialize.
type session struct {
	opts   Options
	spec   adapter.Spec
	emit   func(adapter.Event)
	hooks  adapter.Hooks
	denied []string
	log    hclog.Logger

	mu      sync.Mutex
	iso     isolation
	srv     *server
	c       *client
	hookSrv *hookServer
	stop    context.CancelFunc // ends the event stream
	events  <-chan struct{}    // closed when the event stream ended
	sid     string             // the OpenCode session ID
	model   model
	obs     *observer
	turn    *turn
	// evMu orders the stream's event handling and a turn's replay
	// (replay.go): neither interleaves with the other.
	evMu   sync.Mutex
	busy   bool
	closed bool
}

func newSession(opts Options, spec adapter.Spec, emit func(adapter.Event), hooks adapter.Hooks, denied []string) *session {
	return &session{opts: opts, spec: spec, emit: emit, hooks: hooks, denied: denied,
		log: opts.Log.Named("opencode").With("agent", spec.Name)}
}

// Initialize checks the harness (binary, model, credentials, MCP
// configuration), prepares the isolated configuration and the hook
// server, starts `opencode serve`, checks its configuration and that it
// knows the model, subscribes to its events and creates the session (or
// continues the resumed one, resume.go).
func (s *session) Initialize(ctx context.Context) error {
	s.mu.Lock()
	closed, started := s.closed, s.srv != nil
	s.mu.Unlock()
	if closed {
		return s.closedError()
	}
	if started {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, initializeTimeout)
	defer cancel()
	env := s.opts.Environ()
	bin, err := findBinary(env)
	if err != nil {
		return err
	}
	m, err := s.resolveModel(ctx)
	if err != nil {
		return err
	}
	provider := providerTable(env, m)
	if m.ProviderID == providerOllama {
		if m, provider, err = s.prepareOllama(ctx, env, m); err != nil {
			return err
		}
	}
	creds, err := checkAuth(env, m.ProviderID)
	if err != nil {
		return err
	}
	servers, err := s.opts.MCPServers(s.spec.WorkflowDir, s.spec.AllowedMcps)
	if err != nil {
		return err
	}
	cfg := serverConfig{model: m, provider: provider, prompt: systemPrompt(s.spec), denied: s.denied, mcp: servers}
	return s.start(ctx, bin, env, creds, cfg)
}

// start runs everything that owns a resource; on failure it releases
// what it made.
func (s *session) start(ctx context.Context, bin string, env []string, creds credentials, cfg serverConfig) (err error) {
	st := &startup{s: s}
	defer func() {
		if err != nil {
			st.release()
		}
	}()
	if st.iso, err = newIsolation(creds, s.spec.StateDir); err != nil {
		return s.initError("prepare the isolated configuration: %v", err)
	}
	// The plugin keeps the server's secrets from the agent's commands and
	// announces every tool call before it runs (the turn's end relies on
	// it, replay.go); it asks about a call's result only when the author
	// has a tool hook (otherwise that would be a second loopback round
	// trip per call that can only answer "keep").
	if st.hooks, err = startHookServer(s.beforeTool, s.afterTool); err != nil {
		return s.initError("%v", err)
	}
	cfg.plugin = &pluginRef{File: st.iso.pluginFile(), URL: st.hooks.url, Token: st.hooks.token, After: adapter.HasToolHooks(s.hooks)}
	doc, err := cfg.render()
	if err != nil {
		return s.initError("render the configuration: %v", err)
	}
	password, err := randomSecret()
	if err != nil {
		return s.initError("%v", err)
	}
	began := time.Now()
	if st.srv, err = startServer(ctx, bin, s.spec.WorkingDirectory, st.iso.env(env, doc, password), password, s.log); err != nil {
		return s.initError("%v", err)
	}
	s.log.Debug("opencode serve is listening", "url", st.srv.url, "after", time.Since(began))
	st.c = newClient(st.srv.url, password, s.spec.WorkingDirectory)
	if err := s.checkServer(ctx, st.c, cfg.model); err != nil {
		return err
	}
	obs := newObserver(s.emit)
	sctx, stop := context.WithCancel(context.Background())
	st.stop = stop
	if st.events, err = subscribe(sctx, st.c, func(ev event) { s.onEvent(obs, ev) }); err != nil {
		return s.initError("%v", err)
	}
	sid, err := s.openSession(ctx, st)
	if err != nil {
		return err
	}
	s.log.Debug("opencode session ready", "session", sid, "after", time.Since(began))
	return s.commit(st, sid, cfg.model, obs)
}

// startup collects what start made, to release it on failure.
type startup struct {
	s      *session
	iso    isolation
	hooks  *hookServer
	srv    *server
	c      *client
	stop   context.CancelFunc
	events <-chan struct{}
}

func (st *startup) release() {
	if st.stop != nil {
		st.stop()
	}
	if st.srv != nil {
		_ = st.srv.p.Shutdown(context.Background())
	}
	if st.hooks != nil {
		_ = st.hooks.close()
	}
	st.iso.remove()
}

func (s *session) commit(st *startup, sid string, m model, obs *observer) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.closedError() // Close ran while the server was starting: release it
	}
	s.iso, s.srv, s.c, s.hookSrv, s.stop, s.events = st.iso, st.srv, st.c, st.hooks, st.stop, st.events
	s.sid, s.model, s.obs = sid, m, obs
	return nil
}

// checkServer surfaces an invalid configuration (OpenCode keeps serving
// and answers every instance route with 400 ConfigInvalidError, the
// provider list included), refuses a model the server does not know,
// before any prompt (the selector may then try the next candidate), and
// an effort the model has no variant for. Only provider and model IDs and
// variant names are decoded from /config/providers (the answer also
// carries provider keys; it is never logged).
func (s *session) checkServer(ctx context.Context, c *client, m model) error {
	var doc struct {
		Providers []struct {
			ID     string                `json:"id"`
			Models map[string]modelEntry `json:"models"`
		} `json:"providers"`
	}
	if err := c.call(ctx, "GET", "/config/providers", nil, &doc); err != nil {
		var he *httpError
		if errors.As(err, &he) && he.Status == 400 {
			return agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: harness opencode refused its configuration: %v", s.spec.Name, err).
				WithDetails(map[string]any{"harness": Harness})
		}
		return s.initError("%v", err)
	}
	for _, p := range doc.Providers {
		if p.ID != m.ProviderID {
			continue
		}
		if entry, ok := p.Models[m.ModelID]; ok {
			return checkVariant(s.spec, m, entry)
		}
	}
	return rejection.New(rejection.ModelUnavailable, "agent %q: harness opencode does not know model %s (not in its provider list)", s.spec.Name, m).
		WithDetails(map[string]any{"harness": Harness, "model": m.String()})
}

// modelEntry is what checkServer reads of a model: its variants, the
// reasoning presets OpenCode derives per provider and model (e.g. low,
// medium, high for an OpenAI reasoning model; none for gpt-4.1).
type modelEntry struct {
	Variants map[string]skipValue `json:"variants"`
}

// checkVariant refuses an effort that is not one of the model's variants:
// OpenCode would otherwise ignore it silently.
func checkVariant(spec adapter.Spec, m model, entry modelEntry) error {
	if spec.Effort == "" {
		return nil
	}
	if _, ok := entry.Variants[spec.Effort]; ok {
		return nil
	}
	names := slices.Sorted(maps.Keys(entry.Variants))
	supported := "none: the model has no reasoning variants"
	if len(names) > 0 {
		supported = strings.Join(names, ", ")
	}
	return agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: effort %q is not a variant of model %s on harness opencode (its variants: %s)",
		spec.Name, spec.Effort, m, supported).
		WithDetails(map[string]any{"harness": Harness, "model": m.String(), "effort": spec.Effort, "variants": names})
}

// skipValue decodes any JSON value into nothing: only the keys of a
// map matter.
type skipValue struct{}

func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// createSession creates the OpenCode session: titled (no title request to
// the model) and with the removed tools denied in its own rules.
func (s *session) createSession(ctx context.Context, c *client) (string, error) {
	body := map[string]any{"title": "stratos " + s.spec.Name, "permission": sessionRules(s.denied)}
	var res struct {
		ID string `json:"id"`
	}
	if err := c.call(ctx, "POST", "/session", body, &res); err != nil {
		return "", s.initError("create the session: %v", err)
	}
	return res.ID, nil
}

func (s *session) initError(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return agentproto.Errorf(agentproto.CodeInitialization, "agent %q: harness opencode: %s", s.spec.Name, msg).
		WithDetails(map[string]any{"harness": Harness})
}

func (s *session) closedError() error {
	return agentproto.Errorf(agentproto.CodeContextClosed, "agent %q: the opencode session is closed", s.spec.Name)
}
