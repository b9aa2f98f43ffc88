package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/loopbackguard"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// NativeHooks is how an agent that runs tool hooks of its own, as
// commands configured in its settings, brings them to the author's
// beforeToolCall and afterToolCall. ACP's session/request_permission is
// not enough for them: an agent asks it only for the calls its own policy
// does not allow, and its answer cannot give the model a reason or change
// a result. The agent's hook command runs a relay the kit writes into the
// session's private directory (RelayPath); the relay forwards the hook's
// input to a loopback endpoint of this session inside the agent host and
// prints the answer. The endpoint's address and bearer token reach the
// relay only through the agent's environment (RelayURLVar,
// RelayTokenVar).
type NativeHooks struct {
	// Relay is the relay's source. It must block the call when it cannot
	// reach the endpoint or gets no answer: a hook that fails never lets a
	// tool run.
	Relay []byte
	// Read parses what the agent's hook command got on its stdin.
	Read func(body []byte) (HookCall, error)
	// Answer is the hook command's stdout for the decision.
	Answer func(c HookCall, d HookDecision) []byte
	// Echo is the text the agent adds to its reply when a before-hook
	// denies a call ("" for none); the kit leaves it out of the reply.
	Echo func(c HookCall, reason string) string
}

// HookEvent says when an agent's hook runs.
type HookEvent string

const (
	// HookBefore runs before a call; a block keeps the call from running
	// and the model reads the reason as the call's error.
	HookBefore HookEvent = "before"
	// HookAfter runs after a call succeeded; a block replaces the result
	// the model reads with the reason.
	HookAfter HookEvent = "after"
	// HookAfterFailure runs after a call failed; the agent reads no
	// decision from it.
	HookAfterFailure HookEvent = "after_failure"
)

// HookCall is one hook run of the agent.
type HookCall struct {
	Event HookEvent
	// ToolCallID is the call's ID in the session's tool_call updates.
	ToolCallID string
	Name       string
	Input      json.RawMessage
	// Output is a successful call's result (HookAfter).
	Output json.RawMessage
	// Error is a failed call's error (HookAfterFailure).
	Error string
}

// HookDecision is the answer to a hook run: Block with the reason the
// model reads, or nothing.
type HookDecision struct {
	Block  bool
	Reason string
}

// RelayURLVar and RelayTokenVar carry the endpoint to the relay in the
// agent's environment.
const (
	RelayURLVar   = "STRATOS_ACP_HOOK_URL"
	RelayTokenVar = "STRATOS_ACP_HOOK_TOKEN"
)

// RelayPath is where the kit writes the relay in a session's private
// directory (an agent's hook command runs it).
func RelayPath(dir string) string { return filepath.Join(dir, "stratos-hook-relay.cjs") }

// maxHookBody bounds one hook input (a tool's whole output can be in it).
const maxHookBody = 64 << 20

// nativeHooks reports whether the session brings the author's tool hooks
// through the agent's own.
func (s *session) nativeHooks() bool {
	return s.agent.NativeHooks != nil && adapter.HasToolHooks(s.hooks)
}

// relay is a session's hook endpoint.
type relay struct {
	url, token string
	srv        *http.Server
	done       chan struct{}
}

// startRelay writes the relay into dir and serves the endpoint on
// 127.0.0.1. Other users of the machine reach that port too, so every
// request must carry the token and name the server in Host, from no
// other origin or site (shared/loopbackguard).
func (s *session) startRelay(dir string) (*relay, error) {
	if err := os.WriteFile(RelayPath(dir), s.agent.NativeHooks.Relay, 0o600); err != nil {
		return nil, err
	}
	token, err := loopbackguard.NewToken()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &relay{url: "http://" + ln.Addr().String() + "/hook", token: token, done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /hook", s.serveHook)
	r.srv = &http.Server{Handler: loopbackguard.Guard{Token: token}.Wrap(mux), ReadHeaderTimeout: 30 * time.Second}
	go func() {
		defer close(r.done)
		_ = r.srv.Serve(ln)
	}()
	return r, nil
}

// environ is env with the endpoint's variables.
func (r *relay) environ(env []string) []string {
	return Without(env, []string{RelayURLVar, RelayTokenVar}, RelayURLVar+"="+r.url, RelayTokenVar+"="+r.token)
}

// close stops the endpoint; a hook call still waiting sees its connection
// end, and its relay blocks the call.
func (r *relay) close() {
	if r == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := r.srv.Shutdown(ctx); errors.Is(err, context.DeadlineExceeded) {
		_ = r.srv.Close()
	}
	<-r.done
}

// serveHook answers one hook run; anything but 200 makes the relay block
// the call.
func (s *session) serveHook(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxHookBody))
	if err != nil {
		http.Error(w, "read the hook input: "+err.Error(), http.StatusBadRequest)
		return
	}
	c, err := s.agent.NativeHooks.Read(body)
	if err != nil {
		http.Error(w, "read the hook input: "+err.Error(), http.StatusBadRequest)
		return
	}
	d := s.nativeHook(c)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(s.agent.NativeHooks.Answer(c, d))
}

// nativeHook runs the author's hook for one hook run of the agent. A hook
// that throws, or answers what the agent cannot do, fails the execute;
// the call is blocked (before) or its result withheld (after) meanwhile.
func (s *session) nativeHook(c HookCall) HookDecision {
	t := s.running()
	if t == nil {
		return HookDecision{Block: true, Reason: "no Stratos execute is running"}
	}
	tc := t.tool(c.ToolCallID)
	t.mu.Lock()
	if tc.name == "" {
		tc.name = c.Name
	}
	t.mu.Unlock()
	call := adapter.ToolCall{ID: c.ToolCallID, Name: c.Name, Input: c.Input}
	failed := HookDecision{Block: true, Reason: fmt.Sprintf("the %s hook of agent %q failed", hookName(c.Event), s.spec.Name)}
	switch c.Event {
	case HookBefore:
		res, err := s.hooks.BeforeToolCall(t.ctx, call)
		switch {
		case err != nil:
			t.Fail(err)
			return failed
		case res.Action == agentproto.ActionModify:
			t.Fail(agentproto.Errorf(agentproto.CodeConfiguration,
				"agent %q: harness %s cannot modify a tool call's arguments (beforeToolCall returned modify): its ACP session runs a call with the input the model gave",
				s.spec.Name, s.agent.Harness))
			return failed
		case res.Action == agentproto.ActionDeny:
			t.mu.Lock()
			tc.denied, tc.reason = true, res.Reason
			if s.agent.NativeHooks.Echo != nil {
				t.echoes = append(t.echoes, s.agent.NativeHooks.Echo(c, res.Reason))
			}
			t.mu.Unlock()
			return HookDecision{Block: true, Reason: res.Reason}
		}
		return HookDecision{}
	case HookAfter, HookAfterFailure:
		var toolErr *agentproto.ToolError
		out := c.Output
		if c.Event == HookAfterFailure {
			toolErr, out = &agentproto.ToolError{Message: c.Error}, nil
		}
		res, err := s.hooks.AfterToolCall(t.ctx, call, out, toolErr)
		switch {
		case err != nil:
			t.Fail(err)
			return failed
		case res.Action == agentproto.ActionBlock && c.Event == HookAfterFailure:
			// The agent reads no decision after a failed call: the block
			// cannot be honoured, and is not silently ignored either.
			t.Fail(agentproto.Errorf(agentproto.CodeConfiguration,
				"agent %q: harness %s cannot change a failed tool call's error (afterToolCall returned block): the model reads the error as the call gave it",
				s.spec.Name, s.agent.Harness))
			return failed
		case res.Action == agentproto.ActionBlock:
			return HookDecision{Block: true, Reason: res.Reason}
		}
		return HookDecision{}
	}
	return HookDecision{Block: true, Reason: "unknown hook event " + string(c.Event)}
}

func hookName(e HookEvent) string {
	if e == HookBefore {
		return "beforeToolCall"
	}
	return "afterToolCall"
}
