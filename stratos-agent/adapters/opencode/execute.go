package opencode

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/process"
)

// controlTimeout bounds a control request (prompt_async, abort, a
// permission reply): each answers at once.
const controlTimeout = 30 * time.Second

// cancelWait bounds how long a cancelled execute waits for OpenCode to end
// the aborted turn (about 40 ms measured).
const cancelWait = 15 * time.Second

// Execute sends one prompt and waits for the session to become idle.
// Prompts are strictly sequential: OpenCode would queue a second prompt
// behind a running one, and an abort would leave it unanswered, so a
// concurrent Execute is refused before it reaches OpenCode.
func (s *session) Execute(ctx context.Context, prompt string) (adapter.Result, error) {
	if err := s.reserve(); err != nil {
		return adapter.Result{}, err
	}
	defer s.release()
	s.mu.Lock()
	c, sid, m, srv, events := s.c, s.sid, s.model, s.srv, s.events
	s.mu.Unlock()
	if srv == nil {
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeInitialization, "agent %q: opencode session used before Initialize", s.spec.Name)
	}
	select {
	case <-srv.p.Exited():
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeExecution, "agent %q: opencode serve is gone: %v", s.spec.Name, srv.p.ExitError()).
			WithDetails(map[string]any{"harness": Harness})
	default:
	}
	return s.runTurn(ctx, turnEnv{c: c, srv: srv, events: events, sid: sid, model: m}, prompt)
}

// turnEnv is what a turn needs of the started session.
type turnEnv struct {
	c      *client
	srv    *server
	events <-chan struct{}
	sid    string
	model  model
}

func (s *session) reserve() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return s.closedError()
	case s.busy:
		return agentproto.Errorf(agentproto.CodeConcurrentUse, "agent %q is already executing a prompt on opencode", s.spec.Name)
	}
	s.busy = true
	return nil
}

func (s *session) release() {
	s.mu.Lock()
	s.busy = false
	s.mu.Unlock()
}

// runTurn sends the prompt through prompt_async (the answer arrives on the
// event stream) and waits for the turn's end, the server's death or
// cancellation. Every prompt names the Stratos agent (whose prompt is the
// fixed system prompt) and never sends `tools`, which would replace the
// session's permission rules.
func (s *session) runTurn(ctx context.Context, e turnEnv, prompt string) (adapter.Result, error) {
	c, srv, sid, m := e.c, e.srv, e.sid, e.model
	t := newTurn(ctx, s.nextMessageID())
	s.setTurn(t)
	defer s.setTurn(nil)
	body := map[string]any{"messageID": t.messageID, "agent": agentName,
		"model": map[string]string{"providerID": m.ProviderID, "modelID": m.ModelID},
		"parts": []any{map[string]string{"type": "text", "text": prompt}}}
	if s.spec.Effort != "" { // a variant of the model (checkServer)
		body["variant"] = s.spec.Effort
	}
	schema := len(s.spec.OutputSchema) > 0
	if schema {
		body["format"] = map[string]any{"type": "json_schema", "schema": json.RawMessage(s.spec.OutputSchema)}
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), controlTimeout)
	err := c.call(pctx, "POST", "/session/"+sid+"/prompt_async", body, nil)
	cancel()
	if err != nil {
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeExecution, "agent %q: opencode refused the prompt: %v", s.spec.Name, err).
			WithDetails(map[string]any{"harness": Harness})
	}
	select {
	case <-t.done:
		return t.outcome(schema, s.spec.Name)
	case <-srv.p.Exited():
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeExecution, "agent %q: opencode serve exited during the turn: %v", s.spec.Name, srv.p.ExitError()).
			WithDetails(map[string]any{"harness": Harness})
	case <-e.events:
		// Without its events the turn's end cannot be seen: stop it.
		s.abort(c, sid)
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeExecution, "agent %q: the opencode event stream ended during the turn", s.spec.Name).
			WithDetails(map[string]any{"harness": Harness})
	case <-ctx.Done():
		t.cancel()
	case <-t.cancelledCh:
	}
	s.abort(c, sid)
	timer := time.NewTimer(cancelWait)
	defer timer.Stop()
	select {
	case <-t.done:
	case <-srv.p.Exited():
	case <-timer.C:
		s.log.Warn("opencode did not end the aborted turn in time", "wait", cancelWait)
	}
	return t.outcome(schema, s.spec.Name)
}

func (s *session) setTurn(t *turn) {
	s.mu.Lock()
	s.turn = t
	s.mu.Unlock()
}

func (s *session) currentTurn() *turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turn
}

// abort stops the session's running turn (POST /session/{id}/abort): the
// model request and a running tool end, the session stays usable.
func (s *session) abort(c *client, sid string) {
	ctx, cancel := context.WithTimeout(context.Background(), controlTimeout)
	defer cancel()
	if err := c.call(ctx, "POST", "/session/"+sid+"/abort", nil, nil); err != nil {
		s.log.Debug("abort", "error", err)
	}
}

// messageIDs orders the prompts' message IDs.
var messageCounter atomic.Uint64

// nextMessageID is a message ID in OpenCode's own format, "msg_", 12 hex
// digits of (unix milliseconds × 4096 + a counter) mod 2^48, then 14
// random alphanumerics: OpenCode orders messages by ID, and the answers
// name it as their parentID.
func (s *session) nextMessageID() string {
	n := (uint64(time.Now().UnixMilli())*4096 + messageCounter.Add(1)%4096) % (1 << 48)
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	b := make([]byte, 14)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return fmt.Sprintf("msg_%012x%s", n, b)
}

// onEvent handles one event of the stream: permission requests of the
// session are answered (allowed: the configuration already denied what
// is removed, and author hooks decide the rest), and so are questions;
// the running turn and the observer see the session's events.
func (s *session) onEvent(obs *observer, ev event) {
	if ev.Type != "server.heartbeat" && s.log.IsTrace() {
		s.log.Trace("event", "type", ev.Type, "properties", process.Truncate(string(ev.Properties), 600))
	}
	var p props
	if json.Unmarshal(ev.Properties, &p) != nil {
		return
	}
	s.mu.Lock()
	sid, c, t := s.sid, s.c, s.turn
	s.mu.Unlock()
	if sid == "" || p.sessionOf() != sid {
		return
	}
	switch {
	case ev.Type == "permission.asked" && p.ID != "":
		go s.reply(c, "/permission/"+p.ID+"/reply", map[string]string{"reply": "once"})
	case ev.Type == "question.asked" && p.ID != "":
		// Nobody can answer OpenCode's question tool: the model gets an
		// empty answer per question and goes on, as on Codex.
		answers := make([][]string, len(p.Questions))
		for i := range answers {
			answers[i] = []string{}
		}
		go s.reply(c, "/question/"+p.ID+"/reply", map[string]any{"answers": answers})
	}
	// The observer first: the idle that ends the turn also reports its
	// usage, which must be recorded before Execute returns (the host
	// attributes events to the invocation running when they arrive).
	obs.observe(ev, &p)
	if t != nil {
		t.observe(ev, &p)
	}
}

func (p *props) sessionOf() string {
	switch {
	case p.SessionID != "":
		return p.SessionID
	case p.Info != nil:
		return p.Info.SessionID
	case p.Part != nil:
		return p.Part.SessionID
	}
	return ""
}

// reply answers a request OpenCode waits on.
func (s *session) reply(c *client, path string, body any) {
	ctx, cancel := context.WithTimeout(context.Background(), controlTimeout)
	defer cancel()
	if err := c.call(ctx, "POST", path, body, nil); err != nil {
		s.log.Warn("reply to opencode", "path", path, "error", err)
	}
}
