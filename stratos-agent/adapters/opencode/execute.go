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

// controlTimeout bounds a control request (abort, a permission reply, the
// read of a turn's messages): each answers at once.
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
	c, sid, m, srv, events, obs := s.c, s.sid, s.model, s.srv, s.events, s.obs
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
	return s.runTurn(ctx, turnEnv{c: c, srv: srv, events: events, sid: sid, model: m, obs: obs}, prompt)
}

// turnEnv is what a turn needs of the started session.
type turnEnv struct {
	c      *client
	srv    *server
	events <-chan struct{}
	sid    string
	model  model
	obs    *observer
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

// runTurn sends the prompt through the synchronous route (POST
// /session/{id}/message), which answers with the turn's last assistant
// message when OpenCode's loop ends, and waits for that answer, the
// server's death or cancellation. The turn's events come from the event
// stream as they are delivered and, for what it has not delivered by the
// answer, from the answer (replay.go). Every prompt names the Stratos
// agent (whose prompt is the fixed system prompt) and never sends
// `tools`, which would replace the session's permission rules.
func (s *session) runTurn(ctx context.Context, e turnEnv, prompt string) (adapter.Result, error) {
	t := newTurn(ctx, s.nextMessageID())
	s.setTurn(t)
	defer s.setTurn(nil)
	defer t.finish()
	schema := len(s.spec.OutputSchema) > 0
	// The call outlives a cancelled ctx: the abort makes it return the
	// aborted message.
	pctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	answers := make(chan promptAnswer, 1)
	go func() { answers <- s.prompt(pctx, e, t.messageID, prompt, schema) }()
	var ans promptAnswer
	select {
	case ans = <-answers:
	case <-t.done: // the stream showed the turn's end first
	case <-e.srv.p.Exited():
		return adapter.Result{}, s.serverGone(e.srv)
	case <-e.events:
		// Without its events the turn's end cannot be seen: stop it.
		s.abort(e.c, e.sid)
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeExecution, "agent %q: the opencode event stream ended during the turn", s.spec.Name).
			WithDetails(map[string]any{"harness": Harness})
	case <-ctx.Done():
		t.cancel()
		ans = s.abortAndWait(e, t, answers)
	case <-t.cancelledCh:
		ans = s.abortAndWait(e, t, answers)
	}
	return s.endTurn(ctx, e, t, ans, schema)
}

// promptAnswer is the synchronous route's answer: the last assistant
// message, or why there is none (then the stream tells how the turn
// ended). ok is false when there is no answer (yet).
type promptAnswer struct {
	last reply
	ok   bool
	err  error
}

// prompt sends the prompt and returns the route's answer.
func (s *session) prompt(ctx context.Context, e turnEnv, messageID, prompt string, schema bool) promptAnswer {
	body := map[string]any{"messageID": messageID, "agent": agentName,
		"model": map[string]string{"providerID": e.model.ProviderID, "modelID": e.model.ModelID},
		"parts": []any{map[string]string{"type": "text", "text": prompt}}}
	if s.spec.Effort != "" { // a variant of the model (checkServer)
		body["variant"] = s.spec.Effort
	}
	if schema {
		body["format"] = map[string]any{"type": "json_schema", "schema": json.RawMessage(s.spec.OutputSchema)}
	}
	var last reply
	if err := e.c.call(ctx, "POST", "/session/"+e.sid+"/message", body, &last); err != nil {
		return promptAnswer{err: err}
	}
	return promptAnswer{last: last, ok: last.Info.ID != ""}
}

// abortAndWait stops the running turn and waits (bounded) for its answer
// (OpenCode answers the pending prompt with the aborted message) and for
// the session's idle on the stream: OpenCode answers before its run has
// wound down, and a prompt sent before the idle joins the aborted run.
func (s *session) abortAndWait(e turnEnv, t *turn, answers <-chan promptAnswer) promptAnswer {
	s.abort(e.c, e.sid)
	timer := time.NewTimer(cancelWait)
	defer timer.Stop()
	var ans promptAnswer
	pending, done := answers, t.done // each set to nil (never ready) once it was
	for pending != nil || done != nil {
		select {
		case ans = <-pending:
			pending = nil
		case <-done:
			done = nil
		case <-e.srv.p.Exited():
			return ans
		case <-timer.C:
			s.log.Warn("opencode did not end the aborted turn in time", "wait", cancelWait)
			return ans
		}
	}
	return ans
}

// endTurn completes the turn: from the answer when there is one;
// otherwise (OpenCode refused the prompt, e.g. with HTTP 400 after it
// reported a session.error) from the stream, until the session is idle.
// The turn's usage is reported before the execute returns.
func (s *session) endTurn(ctx context.Context, e turnEnv, t *turn, ans promptAnswer, schema bool) (adapter.Result, error) {
	switch {
	case ans.ok:
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), controlTimeout)
		s.replay(rctx, e, e.obs, t, ans.last)
		cancel()
	case ans.err != nil:
		if err := s.awaitStreamEnd(ctx, e, t, ans.err); err != nil {
			return adapter.Result{}, err
		}
	}
	s.evMu.Lock()
	e.obs.endTurn()
	s.evMu.Unlock()
	return t.outcome(schema, s.spec.Name)
}

// awaitStreamEnd waits for the stream to end a turn whose prompt OpenCode
// answered with an error (HTTP 400 when its prompt handling failed): it
// reports why on the stream (a session.error, then the idle), which
// classifies the failure. Without that within cancelWait, or when the
// stream or the server ends, the refusal itself is the error.
func (s *session) awaitStreamEnd(ctx context.Context, e turnEnv, t *turn, refusal error) error {
	s.log.Debug("opencode answered the prompt without a message; the stream ends the turn", "error", refusal)
	timer := time.NewTimer(cancelWait)
	defer timer.Stop()
	select {
	case <-t.done:
		return nil
	case <-ctx.Done():
		t.cancel()
		s.abort(e.c, e.sid)
		return nil // the outcome is the cancellation
	case <-e.srv.p.Exited():
		return s.serverGone(e.srv)
	case <-e.events:
	case <-timer.C:
	}
	return agentproto.Errorf(agentproto.CodeExecution, "agent %q: opencode refused the prompt: %v", s.spec.Name, refusal).
		WithDetails(map[string]any{"harness": Harness})
}

func (s *session) serverGone(srv *server) error {
	return agentproto.Errorf(agentproto.CodeExecution, "agent %q: opencode serve exited during the turn: %v", s.spec.Name, srv.p.ExitError()).
		WithDetails(map[string]any{"harness": Harness})
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
	// The observer first: what ends the turn must be reported before
	// Execute returns (the host attributes events to the invocation
	// running when they arrive).
	s.evMu.Lock()
	defer s.evMu.Unlock()
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
