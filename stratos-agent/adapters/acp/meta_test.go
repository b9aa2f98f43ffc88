package acp

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// fakeMeta is what fakeAgent says in _meta for the prompt "meta".
type fakeMeta struct {
	Tool   string `json:"tool"`
	Aside  bool   `json:"aside"`
	Tokens int64  `json:"tokens"`
}

func readMeta(raw json.RawMessage) fakeMeta {
	var m fakeMeta
	_ = json.Unmarshal(raw, &m)
	return m
}

// noHooks are an agent without author hooks.
type noHooks struct{}

func (noHooks) BeforeToolCall(context.Context, adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
	return agentproto.BeforeToolCallResult{}, nil
}

func (noHooks) AfterToolCall(context.Context, adapter.ToolCall, json.RawMessage, *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
	return agentproto.AfterToolCallResult{}, nil
}

func (noHooks) HasToolHooks() bool { return false }

// An agent's _meta is read through the Agent's functions: the tool's own
// name, an aside left out of the reply, and token counts summed over the
// turn when the prompt answer has none.
func TestWhatAnAgentSaysInMeta(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l := Launch{Path: self, Env: append(os.Environ(), fakeAgentVar+"=1")}
	agent := Agent{Harness: "fake", Launch: func(context.Context, adapter.Spec, string) (Launch, error) { return l, nil },
		MetaToolName: func(meta json.RawMessage) string { return readMeta(meta).Tool },
		Aside:        func(meta json.RawMessage) bool { return readMeta(meta).Aside },
		UpdateUsage: func(meta json.RawMessage) *eventapi.Tokens {
			if n := readMeta(meta).Tokens; n != 0 {
				return &eventapi.Tokens{InputTokens: n, OutputTokens: 1}
			}
			return nil
		}}
	ev := &events{}
	s := New(agent, Options{}, adapter.Spec{Name: "a", Models: []string{"m"}, WorkingDirectory: t.TempDir()}, ev.add, noHooks{})
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	if err := s.Initialize(context.Background()); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	res, err := s.Execute(context.Background(), "meta")
	if err != nil || res.Text != "metered" {
		t.Fatalf("execute: %q, %v; want the reply without the aside", res.Text, err)
	}
	if started := ev.of(eventapi.TypeToolStarted); len(started) != 1 || started[0].(*eventapi.ToolStarted).ToolName != "own_tool" {
		t.Errorf("tool.started: %+v, want own_tool", started)
	}
	usage := ev.of(eventapi.TypeUsage)
	if len(usage) != 1 {
		t.Fatalf("%d usage events, want 1", len(usage))
	}
	if u := usage[0].(*eventapi.Usage).Tokens; u.InputTokens != 7 || u.OutputTokens != 2 {
		t.Errorf("usage %+v, want the sum of the updates' (7 in, 2 out)", u)
	}
}
