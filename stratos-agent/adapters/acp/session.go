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

	// starting serializes Initialize. mu guards the fields below and is
	// never held across a protocol exchange: the connection's reader
	// takes it for every update and permission request, so holding it
	// while waiting for an answer would stop the answer being read.
	starting sync.Mutex

	mu        sync.Mutex
	conn      *conn
	dir       string
	sessionID string
	turn      *turn
	closed    bool
	// stopStart ends a start under way (Close calls it).
	stopStart context.CancelFunc
	// background counts the tool sessions left running after the last
	// turn (noteBackground).
	background int
	// notResumed says why the session Spec.Resume named was not
	// continued ("" when it was, or when none was asked for).
	notResumed string
	// replay is set while a loaded session's history streams back.
	replay *replay
	// relay is the endpoint of the agent's own hooks (NativeHooks).
	relay *relay
}

// New returns a session of agent for spec.
func New(agent Agent, opts Options, spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) adapter.Adapter {
	opts = opts.WithDefaults()
	return &session{agent: agent, opts: opts, log: opts.Log.Named(agent.Harness), spec: spec, onEvent: onEvent, hooks: hooks}
}

// Initialize starts the agent and its ACP session. The agent may send
// updates before it answers (Gemini CLI announces its commands), so the
// start runs without holding mu.
func (s *session) Initialize(ctx context.Context) error {
	s.starting.Lock()
	defer s.starting.Unlock()
	ctx, cancel := context.WithTimeout(ctx, initializeTimeout)
	defer cancel()
	s.mu.Lock()
	closed, started := s.closed, s.conn != nil
	if !closed && !started {
		s.stopStart = cancel
	}
	s.mu.Unlock()
	switch {
	case closed:
		return s.closedError()
	case started:
		return nil
	}
	dir, err := os.MkdirTemp("", "stratos-"+s.agent.Harness+"-")
	if err != nil {
		return agentproto.Errorf(agentproto.CodeExecution, "agent %q: private directory for %s: %v", s.spec.Name, s.agent.Harness, err)
	}
	c, sid, err := s.start(ctx, dir)
	s.mu.Lock()
	closed = s.closed
	if err == nil && !closed {
		s.conn, s.dir, s.sessionID = c, dir, sid
	}
	s.stopStart = nil
	s.mu.Unlock()
	if err == nil && closed {
		err = s.closedError()
	}
	if err != nil {
		s.stop(context.Background(), c)
		s.closeRelay()
		_ = os.RemoveAll(dir)
		return err
	}
	return nil
}

// start launches the agent in dir and opens the session; on failure the
// caller stops the connection returned (nil when none was made).
func (s *session) start(ctx context.Context, dir string) (*conn, string, error) {
	var r *relay
	if s.nativeHooks() {
		var err error
		if r, err = s.startRelay(dir); err != nil {
			return nil, "", agentproto.Errorf(agentproto.CodeExecution, "agent %q: the tool hook endpoint of %s: %v", s.spec.Name, s.agent.Harness, err)
		}
		s.mu.Lock()
		s.relay = r
		s.mu.Unlock()
	}
	l, err := s.agent.Launch(ctx, s.spec, dir)
	if err != nil {
		return nil, "", err
	}
	if r != nil {
		l.Env = r.environ(l.Env)
	}
	servers, err := s.mcpServers()
	if err != nil {
		return nil, "", err
	}
	c, err := dial(process.Spec{Name: s.agent.Harness, Path: l.Path, Args: l.Args, Dir: s.spec.WorkingDirectory, Env: l.Env, Log: s.log},
		s.handle, func(err error) { s.log.Debug("acp: malformed input", "error", err) })
	if err != nil {
		return nil, "", rejection.New(rejection.HarnessUnavailable, "harness %s cannot start: %v", s.agent.Harness, err).Wrap(err)
	}
	var init initializeResponse
	if err := c.call(ctx, methodInitialize, initializeRequest{ProtocolVersion: ProtocolVersion,
		ClientInfo: implementation{Name: "stratos", Version: version.Version}}, &init); err != nil {
		return c, "", s.startError("initialize", err)
	}
	if init.ProtocolVersion != ProtocolVersion {
		return c, "", agentproto.Errorf(agentproto.CodeExecution, "agent %q: harness %s speaks ACP version %d; Stratos speaks %d",
			s.spec.Name, s.agent.Harness, init.ProtocolVersion, ProtocolVersion).WithDetails(map[string]any{"harness": s.agent.Harness})
	}
	if l.AuthMethod != "" && offers(init.AuthMethods, l.AuthMethod) {
		if err := c.call(ctx, methodAuthenticate, authenticateRequest{MethodID: l.AuthMethod}, nil); err != nil {
			return c, "", rejection.New(rejection.Authentication, "harness %s refused authentication %s: %v", s.agent.Harness, l.AuthMethod, err).Wrap(err)
		}
	}
	created, err := s.open(ctx, c, init.AgentCapabilities, servers)
	if err != nil {
		return c, "", err
	}
	if l.Model != "" {
		if err := s.setModel(ctx, c, created, l.Model); err != nil {
			return c, "", err
		}
	}
	return c, created.SessionID, nil
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
// directory. A start under way is stopped, and what it started ended,
// before Close returns.
func (s *session) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	t, stopStart := s.turn, s.stopStart
	s.mu.Unlock()
	if t != nil {
		t.cancel()
	}
	if stopStart != nil {
		stopStart()
	}
	// Wait for a start under way: it sees closed and ends what it started.
	s.starting.Lock()
	s.mu.Lock()
	c, dir := s.conn, s.dir
	s.conn = nil
	s.mu.Unlock()
	s.starting.Unlock()
	s.stop(ctx, c)
	s.closeRelay()
	if dir != "" {
		_ = os.RemoveAll(dir)
	}
	return nil
}

// stop shuts the agent of c down (stdin closed, then SIGTERM and SIGKILL
// to its group, each bounded), then ends what still runs in the sessions
// of its tools: an agent's background shell runs in a session of its
// own, out of the group's reach, and outlives the agent otherwise.
func (s *session) stop(ctx context.Context, c *conn) {
	if c == nil {
		return
	}
	tools := procgroup.NoteSessions(c.p.Pid())
	if err := c.p.Shutdown(ctx); err != nil {
		s.log.Debug("acp: shutdown", "error", err)
	}
	<-c.served
	if ended := tools.End(toolStopWait, leftoverGrace); len(ended) > 0 {
		s.log.Debug("acp: ended what the agent's tools left running", "pids", ended)
	}
}

// closeRelay stops the hook endpoint, once the agent is gone.
func (s *session) closeRelay() {
	s.mu.Lock()
	r := s.relay
	s.relay = nil
	s.mu.Unlock()
	r.close()
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
