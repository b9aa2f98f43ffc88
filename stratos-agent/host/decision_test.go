package host

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// fakeOllama starts the fake model server as an Ollama server with turns.
func fakeOllama(t *testing.T, turns string) *fakemodel.Server {
	t.Helper()
	s, err := fakemodel.ParseScript([]byte(`{"ollama": {"models": [{"name": "qwen3:8b"}]}, "turns": ` + turns + `}`))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(s, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// ask sends decision.ask for a verdict with the given layers.
func (f *fixture) ask(id, execution, yaml, overrides, call string) (*agentproto.DecisionResult, error) {
	p := agentproto.DecisionParams{DecisionID: id, ExecutionID: execution, Workflow: agentproto.WorkflowRef{Name: "wf", Dir: f.dir},
		Question: agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "Is it done? " + id},
		Config:   agentproto.DecisionLayers{YAML: raw(yaml), Overrides: raw(overrides), Call: raw(call)}}
	var res agentproto.DecisionResult
	if err := f.client.Call(context.Background(), agentproto.MethodDecisionAsk, p, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

func raw(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	return json.RawMessage(s)
}

// A decision through the host: the layers merge (the call's model over
// the YAML's, the YAML's endpoint kept), the answer comes back with its
// usage, and the run's events carry the decision's ID and execution.
func TestDecisionAsk(t *testing.T) {
	srv := fakeOllama(t, `[{"reply": [{"structuredOutput": {"answer": "yes"}}], "usage": {"inputTokens": 20, "outputTokens": 3}}]`)
	f := start(t, echoAgent, defaults)
	res, err := f.ask("top/decision-1", "top", `{"provider": "ollama", "model": "llama3:8b", "baseUrl": "`+srv.URL+`"}`, ``, `{"model": "qwen3:8b"}`)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Answer) != `"yes"` || res.Model != "qwen3:8b" || res.Endpoint != srv.URL || res.Usage.Tokens != 23 {
		t.Errorf("result %+v", res)
	}
	started := f.waitEvent(eventapi.TypeDecisionStarted)
	if started.ExecutionID != "top" || started.IDs.DecisionID != "top/decision-1" || started.AgentID != "" {
		t.Errorf("started %+v", started)
	}
	usage := f.waitEvent(eventapi.TypeUsage)
	if u := usage.Details.(*eventapi.Usage); usage.IDs.DecisionID != "top/decision-1" || u.InputTokens != 20 || u.Provider != "ollama" || u.CostUSD != nil {
		t.Errorf("usage %+v %+v", usage, u)
	}
	if done := f.waitEvent(eventapi.TypeDecisionCompleted).Details.(*eventapi.DecisionCompleted); done.Status != "completed" || string(done.Answer) != `"yes"` {
		t.Errorf("completed %+v", done)
	}
}

// A bad field names its layer: the workflow's workflow.yaml for the YAML
// layer; the decision's ID is in every error's details.
func TestDecisionConfigurationErrorNamesTheLayer(t *testing.T) {
	f := start(t, echoAgent, defaults)
	_, err := f.ask("top/decision-1", "top", `{"provider": "ollama", "model": "qwen3:8b", "baseUrl": "not a url at all"}`, ``, ``)
	wantCode(t, err, agentproto.CodeDecisionConfiguration, filepath.Join(f.dir, "workflow.yaml")+` decision.baseUrl: "not a url at all" is not an HTTP(S) URL`)
	_, err = f.ask("top/decision-2", "top", ``, `{"samples": 0}`, ``)
	wantCode(t, err, agentproto.CodeDecisionConfiguration, "overrides.decision.samples: must be an integer from 1 to 15, got 0")
	if d := remoteDetails(t, err); d["decisionId"] != "top/decision-2" {
		t.Errorf("details %v", d)
	}
}

// Without a baseUrl the decision goes to OLLAMA_HOST.
func TestDecisionUsesOllamaHost(t *testing.T) {
	srv := fakeOllama(t, `[{"reply": [{"structuredOutput": {"answer": "no"}}]}]`)
	t.Setenv("OLLAMA_HOST", srv.URL)
	f := start(t, echoAgent, defaults)
	res, err := f.ask("top/decision-1", "top", `{"provider": "ollama", "model": "qwen3:8b"}`, ``, ``)
	if err != nil || string(res.Answer) != `"no"` || res.Endpoint != srv.URL {
		t.Fatalf("%+v, %v", res, err)
	}
}

// decision.cancel stops a running decision (and one it overtakes); the
// end of its execution stops it too.
func TestDecisionCancel(t *testing.T) {
	srv := fakeOllama(t, `[{"repeat": true, "delay": "1h", "reply": [{"text": "late"}]}]`)
	f := start(t, echoAgent, defaults)
	layers := `{"provider": "ollama", "model": "qwen3:8b", "baseUrl": "` + srv.URL + `"}`
	ask := func(id, execution string) chan error {
		done := make(chan error, 1)
		go func() {
			_, err := f.ask(id, execution, layers, ``, ``)
			done <- err
		}()
		return done
	}
	done := ask("top/decision-1", "top")
	f.waitDecision(eventapi.TypeDecisionStarted, "top/decision-1")
	if err := f.client.Notify(agentproto.MethodDecisionCancel, agentproto.DecisionRef{DecisionID: "top/decision-1"}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, <-done, agentproto.CodeCancelled, "decision top/decision-1 was cancelled")

	// A cancel that arrives before its ask.
	if err := f.client.Notify(agentproto.MethodDecisionCancel, agentproto.DecisionRef{DecisionID: "top/decision-2"}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, <-ask("top/decision-2", "top"), agentproto.CodeCancelled, "was cancelled")

	done = ask("child-1/decision-1", "child-1")
	f.waitDecision(eventapi.TypeDecisionStarted, "child-1/decision-1")
	if err := f.client.Call(context.Background(), agentproto.MethodExecutionClose, agentproto.ExecutionRef{ExecutionID: "child-1"}, nil); err != nil {
		t.Fatal(err)
	}
	wantCode(t, <-done, agentproto.CodeCancelled, "workflow execution ended")
	_, err := f.ask("child-1/decision-2", "child-1", layers, ``, ``)
	wantCode(t, err, agentproto.CodeContextClosed, "its workflow execution has ended")
}

// waitDecision returns the next event of type typ of decision id.
func (f *fixture) waitDecision(typ, id string) eventapi.Event {
	f.t.Helper()
	for {
		if e := f.waitEvent(typ); e.IDs.DecisionID == id {
			return e
		}
	}
}

func remoteDetails(t *testing.T, err error) map[string]any {
	t.Helper()
	var re *jsonrpc.RemoteError
	if !errors.As(err, &re) {
		t.Fatalf("got %v, want an error response", err)
	}
	return re.AgentError().Details
}

// Decisions have their own admission pool (decisions.maxConcurrent and
// maxOutstanding): a decision beyond it is refused with
// decision_admission, while agents' slots are untouched.
func TestDecisionAdmission(t *testing.T) {
	srv := fakeOllama(t, `[{"match": {"marker": "decision-1"}, "delay": "1h", "reply": [{"text": "late"}]}]`)
	limits := defaults
	limits.Decisions = &agentproto.Limits{MaxConcurrent: 1, MaxOutstanding: 1}
	f := start(t, echoAgent, limits)
	layers := `{"provider": "ollama", "model": "qwen3:8b", "baseUrl": "` + srv.URL + `"}`
	done := make(chan error, 1)
	go func() {
		_, err := f.ask("top/decision-1", "top", layers, ``, ``)
		done <- err
	}()
	for !slices.ContainsFunc(srv.Log().Entries(), func(e fakemodel.Entry) bool { return e.Path == "/api/chat" }) {
		time.Sleep(time.Millisecond) // until the first decision holds its slot
	}
	_, err := f.ask("top/decision-2", "top", layers, ``, ``)
	wantCode(t, err, agentproto.CodeDecisionAdmission, "decision rejected: 1 decision requests are already running or waiting in this execution (decisions.maxOutstanding is 1; 1 running, 0 waiting)")
	// Agents still run.
	f.text(call{agent: "a", config: `{"configId":"echo"}`, prompt: `"x"`})
	if err := f.client.Notify(agentproto.MethodDecisionCancel, agentproto.DecisionRef{DecisionID: "top/decision-1"}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, <-done, agentproto.CodeCancelled, "was cancelled")
}

// A decision asked inside a phase carries it on its events, as an
// execute's do; one asked outside any carries none.
func TestDecisionEventsCarryItsPhase(t *testing.T) {
	f := start(t, echoAgent, defaults)
	p := agentproto.DecisionParams{DecisionID: "top/decision-1", ExecutionID: "top", Workflow: agentproto.WorkflowRef{Name: "wf", Dir: f.dir},
		Question: agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "Is it done?"},
		Config:   agentproto.DecisionLayers{Overrides: raw(`{"provider": "test", "script": [{"answer": "yes"}]}`)},
		Phase:    "review/fix"}
	var res agentproto.DecisionResult
	if err := f.client.Call(context.Background(), agentproto.MethodDecisionAsk, p, &res); err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{eventapi.TypeDecisionStarted, eventapi.TypeDecisionCompleted} {
		if e := f.waitEvent(typ); e.Phase != "review/fix" {
			t.Errorf("%s: phase %q, want review/fix", typ, e.Phase)
		}
	}
	if _, err := f.ask("top/decision-2", "top", ``, `{"provider": "test", "script": [{"answer": "no"}]}`, ``); err != nil {
		t.Fatal(err)
	}
	if e := f.waitEvent(eventapi.TypeDecisionStarted); e.IDs.DecisionID != "top/decision-2" || e.Phase != "" {
		t.Errorf("outside a phase: %s phase %q", e.IDs.DecisionID, e.Phase)
	}
}
