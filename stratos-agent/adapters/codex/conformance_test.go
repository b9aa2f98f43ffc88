package codex

import (
	"testing"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// TestConformance runs the adapter conformance suite against the real
// codex app-server and the fake Responses API.
func TestConformance(t *testing.T) {
	adaptertest.Run(t, codexFixture{})
}

// codexFixture starts the fake Responses API per case and points Codex at
// it through OPENAI_BASE_URL.
type codexFixture struct{}

func (codexFixture) Harness() adapter.Harness { return Registration(Options{}) }

func (codexFixture) Start(t *testing.T, s adaptertest.Script) adaptertest.Env {
	t.Helper()
	b := codexBed(t, adaptertest.FakeScript(s.Turns, codexTools), !s.NoCredentials)
	return &adaptertest.FakeEnv{Bed: b.Bed, Factory: NewFactory(b.options()),
		Base: adapter.Spec{Name: "tester", Models: []string{"openai/gpt-fake"}}, Read: adaptertest.ResponsesRequests}
}

// codexTools: a shell command is Codex's exec_command call (a background
// one with a short yield time, so the command outlives the turn); a
// structured value is the final message's JSON.
var codexTools = adaptertest.ToolFormat{Shell: func(sh adaptertest.Shell) fakemodel.ToolUse {
	in := map[string]any{"cmd": sh.Command}
	if sh.Background {
		in["yield_time_ms"] = 250
	}
	return fakemodel.ToolUse{Name: "exec_command", Input: adaptertest.ToolInput(in)}
}}
