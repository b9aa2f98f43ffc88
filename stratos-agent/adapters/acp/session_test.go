package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// fakeAgentVar makes the test binary an ACP agent (fakeAgent) instead of
// running the tests; fakeNoModelsVar makes it offer no models.
const (
	fakeAgentVar    = "STRATOS_ACP_TEST_FAKE_AGENT"
	fakeNoModelsVar = "STRATOS_ACP_TEST_NO_MODELS"
	// fakeLoadVar makes it offer session/load (see fakeLoad).
	fakeLoadVar = "STRATOS_ACP_TEST_LOAD"
)

func TestMain(m *testing.M) {
	if os.Getenv(fakeAgentVar) == "1" {
		fakeAgent()
		return
	}
	os.Exit(m.Run())
}

// fakeAgent speaks ACP on stdin/stdout the way the tests need: it sends an
// update before answering session/new (as Gemini CLI announces its
// commands), offers models fake-1 and fake-2 (fake-1 current), and
// answers a prompt by what it says: "plan" sends a plan update and a
// reply, "model" replies with the current model, anything else is an
// error.
func fakeAgent() {
	current := "fake-1"
	out := json.NewEncoder(os.Stdout)
	in := bufio.NewScanner(os.Stdin)
	update := func(u string) {
		_ = out.Encode(map[string]any{"jsonrpc": "2.0", "method": methodSessionUpdate,
			"params": json.RawMessage(`{"sessionId":"s1","update":` + u + `}`)})
	}
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		answer := map[string]any{"jsonrpc": "2.0", "id": m.ID}
		switch m.Method {
		case methodInitialize:
			answer["result"] = map[string]any{"protocolVersion": ProtocolVersion, "agentCapabilities": map[string]any{"loadSession": os.Getenv(fakeLoadVar) != ""}, "authMethods": []any{}}
		case methodSessionLoad:
			if fakeLoad(m.Params, answer, update) {
				continue
			}
		case methodSessionNew:
			update(`{"sessionUpdate":"available_commands_update","availableCommands":[]}`)
			created := map[string]any{"sessionId": "s1"}
			if os.Getenv(fakeNoModelsVar) == "" {
				created["models"] = map[string]any{"currentModelId": current,
					"availableModels": []any{map[string]any{"modelId": "fake-1", "name": "one"}, map[string]any{"modelId": "fake-2", "name": "two"}}}
			}
			answer["result"] = created
		case methodSessionSetModel:
			var p setModelRequest
			_ = json.Unmarshal(m.Params, &p)
			current = p.ModelID
			answer["result"] = map[string]any{}
		case methodSessionPrompt:
			switch {
			case strings.Contains(string(m.Params), "plan"):
				update(`{"sessionUpdate":"plan","entries":[{"content":"read the file","priority":"high","status":"completed"},{"content":"fix it","priority":"medium","status":"in_progress"}]}`)
				update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"planned"}}`)
				answer["result"] = map[string]any{"stopReason": "end_turn"}
			case strings.Contains(string(m.Params), "meta"):
				// What an agent says in _meta (meta_test.go): a tool's own
				// name, an aside and token counts per model response.
				update(`{"sessionUpdate":"tool_call","toolCallId":"c1","kind":"execute","status":"completed","_meta":{"tool":"own_tool"}}`)
				update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a notice"},"_meta":{"aside":true}}`)
				update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"metered"},"_meta":{"tokens":3}}`)
				update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":""},"_meta":{"tokens":4}}`)
				answer["result"] = map[string]any{"stopReason": "end_turn"}
			case strings.Contains(string(m.Params), "model"):
				update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + current + `"}}`)
				answer["result"] = map[string]any{"stopReason": "end_turn"}
			default:
				answer["error"] = map[string]any{"code": -32603, "message": "the model failed"}
			}
		default:
			answer["error"] = map[string]any{"code": -32601, "message": "method not found: " + m.Method}
		}
		_ = out.Encode(answer)
	}
}

// events records a session's events.
type events struct {
	mu   sync.Mutex
	list []adapter.Event
}

func (e *events) add(ev adapter.Event) {
	e.mu.Lock()
	e.list = append(e.list, ev)
	e.mu.Unlock()
}

func (e *events) of(typ string) []eventapi.Details {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []eventapi.Details
	for _, ev := range e.list {
		if ev.Type() == typ {
			out = append(out, ev.Details)
		}
	}
	return out
}

// fakeSession is a session on fakeAgent, initialized.
func fakeSession(t *testing.T) (adapter.Adapter, *events) {
	t.Helper()
	s, ev := newFakeSession(t, Launch{})
	// The agent sends an update before it answers session/new: the
	// connection's reader must not wait for a lock the start holds.
	if err := s.Initialize(context.Background()); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return s, ev
}

// newFakeSession is a session on fakeAgent launched as l says (its path
// and the variable that makes it the agent added).
func newFakeSession(t *testing.T, l Launch) (adapter.Adapter, *events) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l.Path = self
	l.Env = append(append(os.Environ(), fakeAgentVar+"=1"), l.Env...)
	agent := Agent{Harness: "fake", Launch: func(context.Context, adapter.Spec, string) (Launch, error) { return l, nil }}
	ev := &events{}
	s := New(agent, Options{}, adapter.Spec{Name: "a", Models: []string{"m"}, WorkingDirectory: t.TempDir()}, ev.add, nil)
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s, ev
}

func TestInitializeReadsUpdatesSentBeforeTheAnswer(t *testing.T) {
	s, _ := fakeSession(t)
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Execute(context.Background(), "plan"); agentproto.CodeOf(err) != agentproto.CodeExecution || !strings.Contains(fmt.Sprint(err), "closed") {
		t.Errorf("execute after close: %v", err)
	}
}

func TestPlanUpdatesArePlanEvents(t *testing.T) {
	s, ev := fakeSession(t)
	res, err := s.Execute(context.Background(), "make a plan")
	if err != nil || res.Text != "planned" {
		t.Fatalf("execute: %+v, %v", res, err)
	}
	plans := ev.of(eventapi.TypePlanUpdated)
	if len(plans) != 1 {
		t.Fatalf("%d plan events, want 1", len(plans))
	}
	want := []eventapi.PlanEntry{{Content: "read the file", Priority: "high", Status: "completed"}, {Content: "fix it", Priority: "medium", Status: "in_progress"}}
	if got := plans[0].(*eventapi.PlanUpdated).Entries; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("plan: %+v, want %+v", got, want)
	}
}

func TestAFailedTurnStillEnds(t *testing.T) {
	s, ev := fakeSession(t)
	if _, err := s.Execute(context.Background(), "go"); agentproto.CodeOf(err) != agentproto.CodeExecution {
		t.Fatalf("execute: %v, want an execution error", err)
	}
	started, ended := ev.of(eventapi.TypeModelStarted), ev.of(eventapi.TypeModelCompleted)
	if len(started) != 1 || len(ended) != 1 {
		t.Fatalf("%d model.started, %d model.completed; want one of each", len(started), len(ended))
	}
	if d := ended[0].(*eventapi.ModelCompleted); d.Status != eventapi.StatusFailed || d.Model != "m" {
		t.Errorf("model.completed: %+v, want status failed on model m", d)
	}
	// The session stays usable.
	if res, err := s.Execute(context.Background(), "plan"); err != nil || res.Text != "planned" {
		t.Errorf("next execute: %+v, %v", res, err)
	}
	if d := ev.of(eventapi.TypeModelCompleted)[1].(*eventapi.ModelCompleted); d.Status != "" || d.StopReason != "end_turn" {
		t.Errorf("completed turn: %+v", d)
	}
}

func TestSetModelChoosesAnOfferedModel(t *testing.T) {
	for _, model := range []string{"fake-2", "provider/fake-2"} {
		s, _ := newFakeSession(t, Launch{Model: model})
		if err := s.Initialize(context.Background()); err != nil {
			t.Fatalf("%s: initialize: %v", model, err)
		}
		if res, err := s.Execute(context.Background(), "which model"); err != nil || res.Text != "fake-2" {
			t.Errorf("%s: the agent runs %q (%v), want fake-2", model, res.Text, err)
		}
	}
}

func TestSetModelRefusesWhatTheAgentDoesNotOffer(t *testing.T) {
	s, _ := newFakeSession(t, Launch{Model: "fake-3"})
	err := s.Initialize(context.Background())
	if r, ok := rejection.As(err); !ok || r.Reason != rejection.ModelUnavailable || !strings.Contains(err.Error(), "fake-1, fake-2") {
		t.Errorf("a model not offered: %v, want model_unavailable naming the offered ones", err)
	}
	s, _ = newFakeSession(t, Launch{Model: "fake-1", Env: []string{fakeNoModelsVar + "=1"}})
	if err := s.Initialize(context.Background()); agentproto.CodeOf(err) != agentproto.CodeConfiguration {
		t.Errorf("an agent offering no models: %v, want a configuration error", err)
	}
}
