package opencode

import (
	"testing"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// TestConformance runs the adapter conformance suite against the real
// `opencode serve` with OpenCode's openai provider pointed at the fake
// Responses API through OPENAI_BASE_URL.
func TestConformance(t *testing.T) {
	adaptertest.Run(t, opencodeFixture{})
}

type opencodeFixture struct{}

func (opencodeFixture) Harness() adapter.Harness { return Registration(Options{}) }

func (opencodeFixture) Start(t *testing.T, s adaptertest.Script) adaptertest.Env {
	t.Helper()
	b := openaiBed(t, adaptertest.FakeScript(s.Turns, opencodeTools), !s.NoCredentials)
	model := "openai/gpt-4.1"
	for _, turn := range s.Turns {
		if turn.ModelNotFound {
			// A refused model is one OpenCode's provider list lacks (and
			// the fake refuses too): the adapter finds it before the first
			// prompt. (OpenCode retries an upstream 404 from OpenAI for
			// about a minute before it reports it.)
			model = "openai/gpt-missing-404"
		}
	}
	return &adaptertest.FakeEnv{Bed: b, Factory: NewFactory(openaiOptions(b)), Base: adapter.Spec{Name: "tester", Models: []string{model}},
		Read: adaptertest.ResponsesRequests}
}

// opencodeTools: a shell command is a call of OpenCode's bash tool; a
// structured value a call of the StructuredOutput tool OpenCode offers
// for a json_schema format.
var opencodeTools = adaptertest.ToolFormat{
	Shell: func(sh adaptertest.Shell) fakemodel.ToolUse {
		return fakemodel.ToolUse{Name: "bash", Input: adaptertest.ToolInput(map[string]any{"command": sh.Command, "description": "run the command"})}
	},
	StructuredTool: "StructuredOutput",
}
