package acpgeneric

import (
	"strings"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// An acp agent's model is chosen with session/set_model among the models
// the agent offers in its session/new answer: Gemini CLI, started without
// its own --model, then asks the model the agent names for the prompt.
func TestModelIsChosenWithSetModel(t *testing.T) {
	b := geminiBed(t, adaptertest.ParseScript(t, `{"turns":[{"match":{"marker":"[model]"},"reply":[{"text":"chosen"}]}]}`))
	agent := geminiAgent(t)
	agent.Args = []string{"--acp"}
	a := b.Open(NewFactory(options(b)), adapter.Spec{Name: "m", ACP: agent, Models: []string{"google/gemini-2.5-pro"}, WorkingDirectory: b.Work}, noToolHooks{&adaptertest.Hooks{}})
	res, err := a.Execute(b.Context(), "[model] say which")
	if err != nil || res.Text != "chosen" {
		t.Fatalf("execute: %+v, %v", res, err)
	}
	asked := b.RequestsWith("[model]")
	if len(asked) == 0 {
		t.Fatal("the fake saw no request with the prompt")
	}
	for _, e := range asked {
		if !strings.Contains(e.Path, "/models/gemini-2.5-pro:") {
			t.Errorf("request to %s, want model gemini-2.5-pro", e.Path)
		}
	}
}

// A model the agent does not offer is unavailable (selection moves on to
// the agent's next model), naming what it offers.
func TestAModelTheAgentDoesNotOfferIsUnavailable(t *testing.T) {
	b := geminiBed(t, adaptertest.ParseScript(t, `{"turns":[]}`))
	agent := geminiAgent(t)
	agent.Args = []string{"--acp"}
	a, err := b.Make(NewFactory(options(b)), adapter.Spec{Name: "m", ACP: agent, Models: []string{"google/no-such-model"}, WorkingDirectory: b.Work}, noToolHooks{&adaptertest.Hooks{}})
	if err != nil {
		t.Fatal(err)
	}
	err = a.Initialize(b.Context())
	if r, ok := rejection.As(err); !ok || r.Reason != rejection.ModelUnavailable || !strings.Contains(err.Error(), "gemini-2.5-pro") {
		t.Fatalf("initialize: %v, want model_unavailable naming the offered models", err)
	}
}
