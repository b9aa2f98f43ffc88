package acp

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// fakeLoad answers session/load as Gemini CLI does: the first history
// update before the answer, the rest after it; session "gone" is refused.
// It reports whether it wrote the answer itself.
func fakeLoad(params json.RawMessage, answer map[string]any, update func(string)) bool {
	var p loadSessionRequest
	_ = json.Unmarshal(params, &p)
	if p.SessionID == "gone" {
		answer["error"] = map[string]any{"code": -32603, "message": "Internal error", "data": map[string]any{"details": "No previous sessions found for this project."}}
		return false
	}
	update(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"an earlier prompt"}}`)
	answer["result"] = map[string]any{"models": map[string]any{"currentModelId": "fake-1",
		"availableModels": []any{map[string]any{"modelId": "fake-1", "name": "one"}}}}
	_ = json.NewEncoder(os.Stdout).Encode(answer)
	time.Sleep(50 * time.Millisecond)
	update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"an earlier reply "}}`)
	return true
}

// resumingSession is a session on fakeAgent that resumes session id; load
// says whether the agent offers session/load.
func resumingSession(t *testing.T, id string, load bool) adapter.Adapter {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l := Launch{Path: self, Env: append(os.Environ(), fakeAgentVar+"=1")}
	if load {
		l.Env = append(l.Env, fakeLoadVar+"=1")
	}
	agent := Agent{Harness: "fake", Launch: func(context.Context, adapter.Spec, string) (Launch, error) { return l, nil }}
	spec := adapter.Spec{Name: "a", WorkingDirectory: t.TempDir(), Resume: &adapter.Resume{SessionID: id, Calls: 1}}
	s := New(agent, Options{}, spec, (&events{}).add, nil)
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	if err := s.Initialize(context.Background()); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return s
}

// A resumed session is loaded, and the history the agent streams back,
// part of it after the load's answer, is not taken for the next reply.
func TestResumeLoadsTheSessionAndDropsItsHistory(t *testing.T) {
	s := resumingSession(t, "s1", true)
	if ok, why := s.(adapter.ResumeReporter).Resumed(); !ok {
		t.Fatalf("Resumed() = false (%s), want true", why)
	}
	out, err := s.Execute(context.Background(), "model")
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "fake-1" {
		t.Fatalf("reply %q, want fake-1 alone (the loaded history is not a reply)", out.Text)
	}
}

// A session the agent cannot load, or an agent that cannot load one,
// gives a new session and says why.
func TestResumeFallsBackToANewSession(t *testing.T) {
	for _, c := range []struct {
		name, id string
		load     bool
		why      string
	}{
		{"refused", "gone", true, "No previous sessions"},
		{"not offered", "s1", false, "does not offer session/load"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := resumingSession(t, c.id, c.load)
			ok, why := s.(adapter.ResumeReporter).Resumed()
			if ok || !strings.Contains(why, c.why) {
				t.Fatalf("Resumed() = %v, %q; want false naming %q", ok, why, c.why)
			}
			if out, err := s.Execute(context.Background(), "model"); err != nil || out.Text != "fake-1" {
				t.Fatalf("execute on the new session: %q, %v", out.Text, err)
			}
		})
	}
}
