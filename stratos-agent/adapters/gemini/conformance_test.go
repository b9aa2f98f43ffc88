package gemini

import (
	"testing"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// TestConformance runs the adapter conformance suite against the real
// `gemini --acp` pointed at the fake Gemini API through
// GOOGLE_GEMINI_BASE_URL.
func TestConformance(t *testing.T) {
	adaptertest.Run(t, geminiFixture{})
}

type geminiFixture struct{}

func (geminiFixture) Harness() adapter.Harness { return Registration(Options{}) }

func (geminiFixture) Start(t *testing.T, s adaptertest.Script) adaptertest.Env {
	t.Helper()
	b := geminiBed(t, asText(adaptertest.FakeScript(s.Turns, geminiTools)), !s.NoCredentials)
	return &adaptertest.FakeEnv{Bed: b.Bed, Factory: NewFactory(b.options()),
		Base: adapter.Spec{Name: "tester", Models: []string{"google/gemini-2.5-flash"}}, Read: adaptertest.GeminiRequests}
}

// geminiTools: a shell command is a call of Gemini CLI's run_shell_command
// (is_background for one that outlives the turn).
var geminiTools = adaptertest.ToolFormat{Shell: func(sh adaptertest.Shell) fakemodel.ToolUse {
	in := map[string]any{"command": sh.Command, "description": "a conformance command"}
	if sh.Background {
		in["is_background"] = true
	}
	return fakemodel.ToolUse{Name: "run_shell_command", Input: adaptertest.ToolInput(in)}
}}

// asText makes every structured value of the script the reply's text:
// Gemini CLI has no delivery tool, the value is the final message.
func asText(s fakemodel.Script) fakemodel.Script {
	for i, t := range s.Turns {
		for j, b := range t.Reply {
			if b.StructuredOutput != nil {
				text := string(b.StructuredOutput)
				s.Turns[i].Reply[j] = fakemodel.Block{Text: &text}
			}
		}
	}
	return s
}
