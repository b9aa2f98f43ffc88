package acp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// testNativeHooks read a hook input as a HookCall in JSON and answer with
// the decision in JSON.
var testNativeHooks = &NativeHooks{
	Relay: []byte("// relay"),
	Read: func(body []byte) (HookCall, error) {
		var c HookCall
		err := json.Unmarshal(body, &c)
		return c, err
	},
	Answer: func(_ HookCall, d HookDecision) []byte {
		b, _ := json.Marshal(d)
		return b
	},
	Echo: func(c HookCall, reason string) string { return "blocked " + c.Name + ": " + reason },
}

func hookSession(t *testing.T, hooks adapter.Hooks) (*session, *relay) {
	t.Helper()
	s := &session{agent: Agent{Harness: "fake", NativeHooks: testNativeHooks}, log: hclog.NewNullLogger(),
		spec: adapter.Spec{Name: "tester"}, onEvent: func(adapter.Event) {}, hooks: hooks}
	dir := t.TempDir()
	r, err := s.startRelay(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.close)
	if b, err := os.ReadFile(RelayPath(dir)); err != nil || string(b) != "// relay" {
		t.Fatalf("relay written as %q, %v", b, err)
	}
	return s, r
}

func postHook(t *testing.T, r *relay, token string, c HookCall) (int, string) {
	t.Helper()
	b, _ := json.Marshal(c)
	req, err := http.NewRequest(http.MethodPost, r.url, strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// The hook endpoint answers only its token, on 127.0.0.1; a hook run
// outside an execute is blocked; one inside runs the author's hook: a
// denial is the block with its reason, the echo is expected in the reply,
// a modify blocks and fails the turn, and a block after a failed call
// fails the turn too.
func TestTheHookEndpoint(t *testing.T) {
	hooks := &adaptertest.Hooks{
		Before: func(c adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
			if c.Name == "edit" {
				return agentproto.BeforeToolCallResult{Action: agentproto.ActionModify, Arguments: json.RawMessage(`{}`)}, nil
			}
			return agentproto.BeforeToolCallResult{Action: agentproto.ActionDeny, Reason: "policy 5"}, nil
		},
		After: func(adapter.ToolCall, json.RawMessage, *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
			return agentproto.AfterToolCallResult{Action: agentproto.ActionBlock, Reason: "withheld"}, nil
		},
	}
	s, r := hookSession(t, hooks)
	if !strings.HasPrefix(r.url, "http://127.0.0.1:") {
		t.Errorf("endpoint %s is not on 127.0.0.1", r.url)
	}
	if env := strings.Join(r.environ([]string{RelayTokenVar + "=old"}), "\n"); !strings.Contains(env, RelayURLVar+"="+r.url) || strings.Contains(env, "=old") {
		t.Errorf("relay environment %q", env)
	}
	if code, _ := postHook(t, r, "", HookCall{Event: HookBefore, Name: "shell"}); code != http.StatusUnauthorized {
		t.Errorf("a request without the token: %d", code)
	}
	if code, _ := postHook(t, r, "wrong", HookCall{Event: HookBefore, Name: "shell"}); code != http.StatusUnauthorized {
		t.Errorf("a request with another token: %d", code)
	}
	if code, out := postHook(t, r, r.token, HookCall{Event: HookBefore, Name: "shell"}); code != http.StatusOK || !strings.Contains(out, `"Block":true`) {
		t.Errorf("a hook run outside an execute: %d %s, want a block", code, out)
	}

	tn := newTurn(context.Background())
	s.mu.Lock()
	s.turn = tn
	s.mu.Unlock()
	if _, out := postHook(t, r, r.token, HookCall{Event: HookBefore, ToolCallID: "c1", Name: "shell"}); out != `{"Block":true,"Reason":"policy 5"}` {
		t.Errorf("a denial answered %s", out)
	}
	if !tn.echo("blocked shell: policy 5") || tn.failed() != nil {
		t.Errorf("the denial's echo is not expected, or the turn failed (%v)", tn.failed())
	}
	if _, out := postHook(t, r, r.token, HookCall{Event: HookAfter, ToolCallID: "c2", Name: "read", Output: json.RawMessage(`"x"`)}); out != `{"Block":true,"Reason":"withheld"}` {
		t.Errorf("an after block answered %s", out)
	}
	if tn.failed() != nil {
		t.Errorf("an after block of a successful call failed the turn: %v", tn.failed())
	}
	if _, out := postHook(t, r, r.token, HookCall{Event: HookBefore, ToolCallID: "c3", Name: "edit"}); !strings.Contains(out, `"Block":true`) {
		t.Errorf("a modify answered %s, want a block", out)
	}
	if err := tn.failed(); agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), "cannot modify") {
		t.Errorf("a modify failed the turn with %v", err)
	}

	tn2 := newTurn(context.Background())
	s.mu.Lock()
	s.turn = tn2
	s.mu.Unlock()
	if _, out := postHook(t, r, r.token, HookCall{Event: HookAfterFailure, ToolCallID: "c4", Name: "shell", Error: "exit 3"}); !strings.Contains(out, `"Block":true`) {
		t.Errorf("a block after a failure answered %s", out)
	}
	if err := tn2.failed(); agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), "failed tool call") {
		t.Errorf("a block after a failure failed the turn with %v", err)
	}
}
