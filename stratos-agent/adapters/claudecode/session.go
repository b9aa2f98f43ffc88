package claudecode

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// initializeTimeout bounds the CLI's answer to the initialize request
// (0.5–1 s measured; much more on a cold, loaded machine).
const initializeTimeout = 90 * time.Second

// session is one agent conversation on Claude Code.
type session struct {
	opts       Options
	spec       adapter.Spec
	emit       func(adapter.Event)
	hooks      adapter.Hooks
	disallowed []string
	log        hclog.Logger

	// Fixed by Initialize.
	ready       bool
	bin         string
	inherited   []string
	backendKeys []string
	explicit    bool
	model       catalog.Candidate
	mcpFile     string
	tmpDir      string

	mu        sync.Mutex
	proc      *process
	obs       *observer
	sessionID string // the CLI session of the conversation
	launched  bool   // sessionID has a transcript: a restart resumes it
	turn      *turn
	closed    bool
	inflight  map[string]*inflight
	bg        context.Context // for hooks of turns no execute waits for
	bgCancel  context.CancelFunc
}

func newSession(opts Options, spec adapter.Spec, emit func(adapter.Event), hooks adapter.Hooks, disallowed []string) *session {
	bg, cancel := context.WithCancel(context.Background())
	return &session{opts: opts, spec: spec, emit: emit, hooks: hooks, disallowed: disallowed,
		log: opts.Log.Named("claude-code").With("agent", spec.Name), inflight: map[string]*inflight{}, bg: bg, bgCancel: cancel}
}

// Initialize checks the harness once: binary, backend, the model's native
// ID from the catalog, authentication, MCP configuration. No process starts
// here: the CLI starts at the first Execute. A missing CLI, missing
// credentials or a model Claude Code cannot be asked for are rejections the
// host's selector may pass over.
func (s *session) Initialize(ctx context.Context) error {
	env := s.opts.Environ()
	bin, err := findBinary(env)
	if err != nil {
		return err
	}
	flags := backendFlags()
	backend, err := s.backend(flags, env)
	if err != nil {
		return err
	}
	model, err := s.resolveModel(ctx, backend, flags)
	if err != nil {
		return err
	}
	keys := backendKeys(flags)
	authEnv := childEnv(env, keys, model.Native.Env, s.spec.Provider != "")
	if !envAuthenticates(authEnv, model.Native.Env) {
		// No credential in the environment: only the CLI knows whether it
		// has a stored login of its own.
		if _, err := checkAuth(ctx, bin, s.spec.WorkingDirectory, authEnv); err != nil {
			return err
		}
	}
	return s.prepareMCP(bin, env, keys, model)
}

func (s *session) backend(flags map[string]map[string]string, env []string) (string, error) {
	if p := s.spec.Provider; p != "" {
		if _, ok := flags[p]; !ok {
			return "", agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: provider %q is not a Claude Code backend (known: %s)",
				s.spec.Name, p, strings.Join(slices.Sorted(maps.Keys(flags)), ", ")).WithDetails(map[string]any{"harness": Harness, "provider": p})
		}
		return p, nil
	}
	return inspectBackend(flags, env)
}

// resolveModel returns the model's native ID and backend flags on the
// effective backend.
func (s *session) resolveModel(ctx context.Context, backend string, flags map[string]map[string]string) (catalog.Candidate, error) {
	if len(s.spec.Models) == 0 {
		// No model configured: the CLI's own default on that backend.
		return catalog.Candidate{Harness: Harness, Provider: backend, Native: catalog.Native{Env: flags[backend]}}, nil
	}
	cands, err := s.opts.Catalog.Candidates(ctx, catalog.Query{Models: s.spec.Models, Harness: Harness, Provider: s.spec.Provider, Backend: backend})
	if err != nil {
		return catalog.Candidate{}, err
	}
	if len(cands) == 0 {
		return catalog.Candidate{}, rejection.New(rejection.ModelUnavailable, "agent %q: model %s cannot be used through claude-code", s.spec.Name, s.spec.Models[0]).
			WithDetails(map[string]any{"harness": Harness, "model": s.spec.Models[0]})
	}
	return cands[0], nil
}

func (s *session) prepareMCP(bin string, env, keys []string, model catalog.Candidate) error {
	servers, err := s.opts.MCPServers(s.spec.WorkflowDir, s.spec.AllowedMcps)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "stratos-claude-")
	if err != nil {
		return agentproto.Errorf(agentproto.CodeInitialization, "harness claude-code: %v", err).Wrap(err)
	}
	file, err := writeMCPConfig(dir, servers)
	if err != nil {
		os.RemoveAll(dir)
		return agentproto.Errorf(agentproto.CodeInitialization, "harness claude-code: %v", err).Wrap(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tmpDir != "" {
		os.RemoveAll(s.tmpDir)
	}
	s.ready, s.bin, s.inherited, s.backendKeys, s.explicit = true, bin, env, keys, s.spec.Provider != ""
	s.model, s.mcpFile, s.tmpDir = model, file, dir
	s.sessionID, s.launched = newUUID(), false
	if r := s.spec.Resume; r != nil && r.SessionID != "" {
		// A resumed run's agent: the CLI keeps its transcripts in its own
		// configuration directory, keyed by working directory, so the
		// session resumes by its ID alone (no state in the run record).
		s.sessionID, s.launched = r.SessionID, true
	}
	return nil
}

// ensureProcess returns the running CLI, starting it (and initializing the
// control protocol) when there is none; a CLI that died between prompts is
// restarted on the same conversation with --resume.
func (s *session) ensureProcess(ctx context.Context) (*process, *observer, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, nil, agentproto.Errorf(agentproto.CodeContextClosed, "agent %q: the claude-code session is closed", s.spec.Name)
	}
	if !s.ready {
		s.mu.Unlock()
		return nil, nil, agentproto.Errorf(agentproto.CodeInitialization, "agent %q: claude-code session used before Initialize", s.spec.Name)
	}
	if p := s.proc; p != nil {
		select {
		case <-p.exited:
			s.log.Warn("claude exited between prompts; restarting it on the same conversation", "error", p.exitError())
			s.proc = nil
		default:
			obs := s.obs
			s.mu.Unlock()
			return p, obs, nil
		}
	}
	l := s.launchLocked()
	s.mu.Unlock()

	obs := newObserver(s.emit, s.model.Provider)
	h := handlers{frame: func(f *frame) { s.onFrame(obs, f) }, control: s.onControl, cancel: s.onCancelRequest}
	p, err := start(l, h, s.log)
	if err != nil {
		return nil, nil, agentproto.Errorf(agentproto.CodeInitialization, "agent %q: harness claude-code: %v", s.spec.Name, err).Wrap(err)
	}
	if err := s.initializeProtocol(ctx, p); err != nil {
		_ = p.shutdown(context.WithoutCancel(ctx))
		return nil, nil, err
	}
	s.mu.Lock()
	s.proc, s.obs, s.launched = p, obs, true
	closed := s.closed
	s.mu.Unlock()
	if closed { // Close ran while the process was starting
		_ = p.shutdown(context.WithoutCancel(ctx))
		return nil, nil, agentproto.Errorf(agentproto.CodeContextClosed, "agent %q: the claude-code session is closed", s.spec.Name)
	}
	return p, obs, nil
}

func (s *session) launchLocked() launch {
	m := s.model
	return launch{bin: s.bin, dir: s.spec.WorkingDirectory, sessionID: s.sessionID, resume: s.launched,
		model: m.NativeModel(), effort: s.spec.Effort, disallowed: s.disallowed, jsonSchema: nativeSchema(s.spec.OutputSchema),
		mcpConfigFile: s.mcpFile, env: childEnv(s.inherited, s.backendKeys, m.Native.Env, s.explicit)}
}

// systemPromptParts is the fixed system prompt followed, for an agent in a
// worktree, by the host's worktree context, once per session. The CLI
// joins the parts with a blank line.
func systemPromptParts(spec adapter.Spec) []string {
	switch {
	case spec.HarnessContext == "":
		return []string{spec.SystemPrompt}
	case spec.SystemPrompt == "":
		return []string{spec.HarnessContext}
	}
	return []string{spec.SystemPrompt, spec.HarnessContext}
}

// initializeProtocol registers the hooks and sets the fixed system prompt
// (and the output schema, as the TS SDK does) through initialize.
func (s *session) initializeProtocol(ctx context.Context, p *process) error {
	req := initializeRequest{Subtype: "initialize", Hooks: hookRegistration(), SystemPrompt: systemPromptParts(s.spec)}
	if len(s.spec.OutputSchema) > 0 {
		req.JSONSchema = nativeSchema(s.spec.OutputSchema)
	}
	ictx, cancel := context.WithTimeout(ctx, initializeTimeout)
	defer cancel()
	if _, err := p.request(ictx, req); err != nil {
		if errors.Is(err, errExited) {
			err = p.exitError()
		}
		return agentproto.Errorf(agentproto.CodeInitialization, "agent %q: harness claude-code did not initialize: %v", s.spec.Name, err).Wrap(err)
	}
	return nil
}

// onFrame runs on the reader goroutine: events first, then the turn.
// Results that belong to no prompt (turns the CLI starts itself when a
// background task finishes) are recorded and never taken for the answer
// to the next prompt.
func (s *session) onFrame(obs *observer, f *frame) {
	obs.observe(f)
	s.mu.Lock()
	t := s.turn
	s.mu.Unlock()
	if f.Type != "result" {
		if t != nil {
			t.note(f)
		}
		return
	}
	r := &resultFrame{}
	if err := json.Unmarshal(f.raw, r); err != nil {
		s.log.Warn("undecodable result frame", "error", err)
		return
	}
	if t != nil && r.belongsTo(t.uuid) {
		obs.turnUsage(r, t.uuid)
		select {
		case t.result <- r:
		default:
		}
		return
	}
	obs.turnUsage(r, "")
	s.log.Debug("result of a turn no prompt asked for (background wake-up)", "subtype", r.Subtype, "isError", r.IsError)
}
