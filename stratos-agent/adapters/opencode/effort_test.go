package opencode

import (
	"encoding/json"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// An effort is the model's variant of that name: OpenCode turns it into
// the provider's reasoning setting, here the Responses API's
// reasoning.effort.
func TestEffortIsTheModelsVariant(t *testing.T) {
	b := openaiBed(t, adaptertest.ParseScript(t, `{"turns":[{"match":{"marker":"[think]"},"reply":[{"text":"thought"}]}]}`), true)
	a := b.Open(NewFactory(openaiOptions(b)), adapter.Spec{Name: "thinker", Models: []string{"openai/gpt-5"}, Effort: "high",
		WorkingDirectory: b.Work}, nil)
	if res, err := a.Execute(b.Context(), "[think] go"); err != nil || res.Text != "thought" {
		t.Fatalf("execute: %q, %v", res.Text, err)
	}
	reqs := b.RequestsWith("[think]")
	if len(reqs) != 1 {
		t.Fatalf("%d model requests", len(reqs))
	}
	var body struct {
		Reasoning struct {
			Effort string `json:"effort"`
		} `json:"reasoning"`
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil || body.Reasoning.Effort != "high" {
		t.Errorf("reasoning.effort = %q (%v), want high: %s", body.Reasoning.Effort, err, reqs[0].Body)
	}
}

// A model without the variant (gpt-4.1 has no reasoning variants) refuses
// the effort before any prompt: OpenCode itself would ignore it.
func TestAnEffortTheModelLacksIsAConfigurationError(t *testing.T) {
	b := openaiBed(t, adaptertest.ParseScript(t, `{"turns":[]}`), true)
	a, err := b.Make(NewFactory(openaiOptions(b)), adapter.Spec{Name: "thinker", Models: []string{"openai/gpt-4.1"}, Effort: "high",
		WorkingDirectory: b.Work}, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = a.Initialize(b.Context())
	if agentproto.CodeOf(err) != agentproto.CodeConfiguration {
		t.Fatalf("initialize: %v, want a configuration error", err)
	}
	if n := len(b.Server.Log().Entries()); n != 0 {
		t.Errorf("%d model requests before the refusal", n)
	}
}
