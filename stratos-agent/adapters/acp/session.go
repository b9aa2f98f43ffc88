package acp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/shared/version"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
	"github.com/stratoscli/stratos/stratos-agent/adapter/process"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// initializeTimeout bounds the agent's start, initialize, authenticate
// and session/new (Gemini CLI answers initialize in 4–10 s on a loaded
// 2-core machine: node starts its bundle first).
const initializeTimeout = 90 * time.Second

// cancelWait bounds the wait for the agent to end a cancelled prompt.
const cancelWait = 30 * time.Second

const (
	// toolStopWait bounds the agent's own stop of its tools at close,
	// before what is left in their sessions is signalled.
	toolStopWait = 6 * time.Second
	// leftoverGrace is what a leftover gets between SIGTERM and SIGKILL.
	leftoverGrace = 2 * time.Second
)

// Options are the kit's factory options.
type Options = adapter.Options

// session is one agent conversation over ACP: one agent process and one
// ACP session, started by Initialize.
type session struct {
	agent   Agent
	opts    Options
	log     hclog.Logger
	spec    adapter.Spec
	onEvent func(adapter.Event)
	hooks   adapter.Hooks

	mu        sync.Mutex
	conn      *conn
	dir       string
	sessionID string
	turn      *turn
	closed    bool
	// background counts the tool sessions left running after the last
	// turn (noteBackground).
	background int
}

// New returns a session of agent for spec.
func New(agent Agent, opts Options, spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) adapter.Adapter {
	opts = opts.WithDefaults()
	return &session{agent: agent, opts: opts, log: opts.Log.Named(agent.Harness), spec: spec, onEvent: onEvent, hooks: hooks}
}

// Initialize starts the agent and its ACP session.
func (s *session) Initialize(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.closedError()
	}
	if s.conn != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, initializeTimeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "stratos-"+s.agent.Harness+"-")
	if err != nil {
		return agentproto.Errorf(agentproto.CodeExecution, "agent %q: private directory for %s: %v", s.spec.Name, s.agent.Harness, err)
	}
	if err := s.start(ctx, dir); err != nil {
		s.stop(context.Background())
		_ = os.RemoveAll(dir)
		return err
	}
	return nil
}

// start launches the agent and opens the session; on failure the caller
// stops what was started.
func (s *session) start(ctx context.Context, dir string) error {
	s.dir = dir
	l, err := s.agent.Launch(ctx, s.spec, dir)
	if err != nil {
		return err
	}
	servers, err := s.mcpServers()
	if err != nil {
		return err
	}
	c, err := dial(process.Spec{Name: s.agent.Harness, Path: l.Path, Args: l.Args, Dir: s.spec.WorkingDirectory, Env: l.Env, Log: s.log},
		s.handle, func(err error) { s.log.Debug("acp: malformed input", "error", err) })
	if err != nil {
		return rejection.New(rejection.HarnessUnavailable, "harness %s cannot start: %v", s.agent.Harness, err).Wrap(err)
	}
	s.conn = c
	var init initializeResponse
	if err := c.call(ctx, methodInitialize, initializeRequest{ProtocolVersion: ProtocolVersion,
		ClientInfo: implementation{Name: "stratos", Version: version.Version}}, &init); err != nil {
		return s.startError("initialize", err)
	}
	if init.ProtocolVersion != ProtocolVersion {
		return agentproto.Errorf(agentproto.CodeExecution, "agent %q: harness %s speaks ACP version %d; Stratos speaks %d",
			s.spec.Name, s.agent.Harness, init.ProtocolVersion, ProtocolVersion).WithDetails(map[string]any{"harness": s.agent.Harness})
	}
	if l.AuthMethod != "" && offers(init.AuthMethods, l.AuthMethod) {
		if err := c.call(ctx, methodAuthenticate, authenticateRequest{MethodID: l.AuthMethod}, nil); err != nil {
			return rejection.New(rejection.Authentication, "harness %s refused authentication %s: %v", s.agent.Harness, l.AuthMethod, err).Wrap(err)
		}
	}
	var created newSessionResponse
	if err := c.call(ctx, methodSessionNew, newSessionRequest{Cwd: s.spec.WorkingDirectory, MCPServers: servers}, &created); err != nil {
		return s.startError("session/new", err)
	}
	s.sessionID = created.SessionID
	return nil
}

func offers(methods []authMethod, id string) bool {
	for _, m := range methods {
		if m.ID == id {
			return true
		}
	}
	return false
}

func (s *session) startError(step string, err error) error {
	return agentproto.Errorf(agentproto.CodeExecution, "agent %q: harness %s: %s: %v", s.spec.Name, s.agent.Harness, step, err).
		WithDetails(map[string]any{"harness": s.agent.Harness})
}

// mcpServers are the agent's selected MCP servers as session/new takes
// them: credentials travel on the agent's stdin, never on argv.
func (s *session) mcpServers() ([]MCPServer, error) {
	out := []MCPServer{}
	if len(s.spec.AllowedMcps) == 0 {
		return out, nil
	}
	servers, err := s.opts.MCPServers(s.spec.WorkflowDir, s.spec.AllowedMcps)
	if err != nil {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: %v", s.spec.Name, err)
	}
	for _, sv := range servers {
		out = append(out, mcpServer(sv))
	}
	return out, nil
}

func mcpServer(sv mcpconfig.Server) MCPServer {
	if sv.Type == "http" {
		return MCPServer{Type: "http", Name: sv.Name, URL: sv.URL, Headers: pairs(sv.Headers)}
	}
	return MCPServer{Name: sv.Name, Command: sv.Command, Args: nonNil(sv.Args), Env: pairs(sv.Env)}
}

func pairs(m map[string]string) []nameValue {
	out := []nameValue{}
	for k, v := range m {
		out = append(out, nameValue{Name: k, Value: v})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Cancel stops the running prompt (session/cancel) and ends the work the
// agent's tools still run in sessions of their own (background shells),
// which ACP has no request for; the session stays usable. It returns at
// once: the tools' end is waited for on a goroutine of its own.
func (s *session) Cancel() {
	s.mu.Lock()
	t, c := s.turn, s.conn
	s.mu.Unlock()
	if t != nil {
		t.cancel()
	}
	if c != nil {
		tools := procgroup.NoteSessions(c.p.Pid())
		go func() {
			if ended := tools.End(toolStopWait, leftoverGrace); len(ended) > 0 {
				s.log.Debug("acp: cancel ended what the agent's tools left running", "pids", ended)
			}
		}()
	}
}

// Close ends the session and its agent process, and removes the private
// directory.
func (s *session) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	t := s.turn
	s.mu.Unlock()
	if t != nil {
		t.cancel()
	}
	s.stop(ctx)
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
	}
	return nil
}

// stop shuts the agent down (stdin closed, then SIGTERM and SIGKILL to its
// group, each bounded), then ends what still runs in the sessions of its
// tools: an agent's background shell runs in a session of its own, out of
// the group's reach, and outlives the agent otherwise.
func (s *session) stop(ctx context.Context) {
	if s.conn == nil {
		return
	}
	tools := procgroup.NoteSessions(s.conn.p.Pid())
	if err := s.conn.p.Shutdown(ctx); err != nil {
		s.log.Debug("acp: shutdown", "error", err)
	}
	<-s.conn.served
	s.conn = nil
	if ended := tools.End(toolStopWait, leftoverGrace); len(ended) > 0 {
		s.log.Debug("acp: ended what the agent's tools left running", "pids", ended)
	}
}

func (s *session) closedError() error {
	return agentproto.Errorf(agentproto.CodeExecution, "agent %q: the %s session is closed", s.spec.Name, s.agent.Harness)
}

func (s *session) cancelledError() error {
	return agentproto.Errorf(agentproto.CodeCancelled, "execute of agent %q was cancelled", s.spec.Name)
}

// emit sends one event of the session.
func (s *session) emit(ids eventapi.IDs, d eventapi.Details) {
	ids.NativeSessionID = s.sessionID
	s.onEvent(adapter.NewEvent(ids, d))
}

var errNoSession = errors.New("the session was not initialized")

func (s *session) current() (*conn, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, "", s.closedError()
	case s.conn == nil:
		return nil, "", fmt.Errorf("agent %q: %w", s.spec.Name, errNoSession)
	}
	return s.conn, s.sessionID, nil
}

var _ adapter.Adapter = (*session)(nil)
