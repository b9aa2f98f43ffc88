package test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// TestConformance runs the adapter conformance suite against the test
// harness: the "model" is the script, its input the harness's observations.
func TestConformance(t *testing.T) {
	adaptertest.Run(t, fixture{})
}

type fixture struct{}

func (fixture) Harness() adapter.Harness { return Registration() }

// Start translates the suite's turns into a script played in order: a
// shell call is a simulated tool call whose output is the command line
// (tools are not run), a long call waits, a refused model is a scripted
// model_unavailable failure.
func (fixture) Start(t *testing.T, s adaptertest.Script) adaptertest.Env {
	script := Script{}
	if s.NoCredentials {
		script.Initialize = []Attempt{{Fail: "authentication", Message: "no credentials"}}
	}
	for _, turn := range s.Turns {
		script.Turns = append(script.Turns, scriptTurn(turn))
	}
	raw, err := json.Marshal(script)
	if err != nil {
		t.Fatal(err)
	}
	return &env{script: raw, work: t.TempDir()}
}

func scriptTurn(turn adaptertest.Turn) Turn {
	out := Turn{Expect: &Expect{PromptContains: turn.Marker}}
	switch {
	case turn.ModelNotFound:
		out.Fail = "model_unavailable"
		return out
	case turn.Value != nil:
		out.Value = turn.Value
		return out
	case turn.Shell != nil:
		in, _ := json.Marshal(map[string]string{"command": turn.Shell.Command})
		output, _ := json.Marshal("$ " + turn.Shell.Command)
		call := ToolCall{Tool: "shell", Input: in, Output: output}
		if turn.Shell.Fails {
			call.Output, call.Error = nil, "$ "+turn.Shell.Command+": exit status 3"
		}
		out.ToolCalls = []ToolCall{call}
		if turn.Shell.Long {
			out.DelayMs = 600000
		}
	}
	reply := turn.Text
	out.Reply = &reply
	return out
}

type env struct {
	script json.RawMessage
	work   string

	mu           sync.Mutex
	observations []Observation
}

func (e *env) New(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
	spec.Test = e.script
	return NewFactory(Options{Observe: e.observe})(spec, onEvent, hooks)
}

func (e *env) observe(o Observation) {
	e.mu.Lock()
	e.observations = append(e.observations, o)
	e.mu.Unlock()
}

func (e *env) Spec() adapter.Spec {
	return adapter.Spec{Name: "tester", Models: []string{"test/model"}, WorkingDirectory: e.work}
}

// ProcessMarker is empty: the test harness starts no process.
func (e *env) ProcessMarker() string { return "" }

func (e *env) Requests() []adaptertest.Request {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]adaptertest.Request, len(e.observations))
	for i, o := range e.observations {
		r := adaptertest.Request{System: o.Instructions, Prompt: o.Prompt, Conversation: strings.Join(append(o.History, o.Prompt), "\n")}
		for _, tr := range o.ToolResults {
			r.ToolResults = append(r.ToolResults, adaptertest.ToolResult{Content: tr.Content, IsError: tr.IsError})
		}
		out[i] = r
	}
	return out
}
