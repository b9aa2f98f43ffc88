package qwen

import (
	"testing"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// TestConformance runs the adapter conformance suite against the real
// `qwen --acp` pointed at the fake Chat Completions API through
// OPENAI_BASE_URL.
func TestConformance(t *testing.T) {
	adaptertest.Run(t, qwenFixture{})
}

type qwenFixture struct{}

func (qwenFixture) Harness() adapter.Harness { return Registration(Options{}) }

func (qwenFixture) Start(t *testing.T, s adaptertest.Script) adaptertest.Env {
	t.Helper()
	b := qwenBed(t, asText(adaptertest.FakeScript(s.Turns, qwenTools)), !s.NoCredentials)
	return &adaptertest.FakeEnv{Bed: b.Bed, Factory: NewFactory(b.options()),
		Base: adapter.Spec{Name: "tester", Models: []string{"openai/fake-model"}}, Read: chatRequests}
}

// qwenTools: a shell command is a call of Qwen Code's run_shell_command.
var qwenTools = adaptertest.ToolFormat{Shell: func(sh adaptertest.Shell) fakemodel.ToolUse {
	in := map[string]any{"command": sh.Command, "description": "a conformance command"}
	if sh.Background {
		in["is_background"] = true
	}
	return fakemodel.ToolUse{Name: "run_shell_command", Input: adaptertest.ToolInput(in)}
}}

// asText makes every structured value of the script the reply's text:
// Qwen Code over ACP has no delivery tool, the value is the final message.
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
