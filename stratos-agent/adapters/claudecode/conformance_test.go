package claudecode

import (
	"testing"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// TestConformance runs the adapter conformance suite against the real
// claude CLI and the fake Anthropic server.
func TestConformance(t *testing.T) {
	adaptertest.Run(t, claudeFixture{})
}

// claudeFixture starts the fake Anthropic API per case and points a
// private CLI configuration at it.
type claudeFixture struct{}

func (claudeFixture) Harness() adapter.Harness { return Registration(Options{}) }

func (claudeFixture) Start(t *testing.T, s adaptertest.Script) adaptertest.Env {
	t.Helper()
	b := claudeBed(t, adaptertest.FakeScript(s.Turns, claudeTools), !s.NoCredentials)
	return &adaptertest.FakeEnv{Bed: b.Bed, Factory: NewFactory(Options{Environ: b.Environ}),
		Base: adapter.Spec{Name: "tester", Models: []string{"anthropic/claude-opus-4-7"}}, Read: adaptertest.AnthropicRequests}
}

// claudeTools: a shell command is a call of the Bash tool; a structured
// value is the fake's StructuredOutput call.
var claudeTools = adaptertest.ToolFormat{Shell: func(sh adaptertest.Shell) fakemodel.ToolUse {
	in := map[string]any{"command": sh.Command, "description": "run"}
	if sh.Background {
		in["run_in_background"] = true
	}
	return fakemodel.ToolUse{Name: "Bash", Input: adaptertest.ToolInput(in)}
}}
