package acpgeneric

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
)

// TestConformance runs the adapter conformance suite against the acp
// harness pointed at the real Gemini CLI in ACP mode, configured only
// through acp: {command, args, env} (its API key, base URL and settings
// reach it through ${NAME} references of acp.env), and talking to the
// fake Gemini API. The cases the protocol cannot promise are skipped by
// the harness's declared capabilities.
func TestConformance(t *testing.T) {
	adaptertest.Run(t, acpFixture{})
}

type acpFixture struct{}

func (acpFixture) Harness() adapter.Harness { return Registration(Options{}) }

func (acpFixture) Start(t *testing.T, s adaptertest.Script) adaptertest.Env {
	t.Helper()
	b := geminiBed(t, asText(adaptertest.FakeScript(s.Turns, geminiTools)))
	return &adaptertest.FakeEnv{Bed: b, Factory: NewFactory(options(b)),
		Base: adapter.Spec{Name: "tester", ACP: geminiAgent(t)}, Read: adaptertest.GeminiRequests}
}

// geminiAgent is Gemini CLI as an acp agent: its model chosen by its own
// flag, the Gemini API key method, its system-prompt file variable, and
// what points it at the fake (and keeps its usage statistics off) passed
// from the host environment by reference.
func geminiAgent(t *testing.T) *agentproto.ACPAgent {
	return &agentproto.ACPAgent{
		Command: adaptertest.CLI(t, "STRATOS_TEST_GEMINI", "@google/gemini-cli"),
		Args:    []string{"--acp", "--model", "gemini-2.5-flash"},
		Env: map[string]string{
			"GEMINI_API_KEY":         "${GEMINI_API_KEY}",
			"GOOGLE_GEMINI_BASE_URL": "${GOOGLE_GEMINI_BASE_URL}",
			"GEMINI_CLI_HOME":        "${TEST_GEMINI_HOME}",
			// The suite finds every process the adapter started by the
			// bed's marker, which the agent inherits only from here.
			"STRATOS_TEST_BED": "${STRATOS_TEST_BED}",
		},
		AuthMethod:          "gemini-api-key",
		SystemPromptFileVar: "GEMINI_SYSTEM_MD",
	}
}

// geminiBed is the kit's bed with, in the host environment, the fake
// Gemini API's URL, a fake key and a Gemini CLI home whose settings turn
// off its update checks and usage statistics (no connection beyond the
// fake). The home is the author's to give: the harness's private HOME is
// made per session.
func geminiBed(t *testing.T, script fakemodel.Script) *adaptertest.Bed {
	t.Helper()
	b := adaptertest.NewBed(t, script)
	home := filepath.Join(b.Dir, "gemini-home")
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o700); err != nil {
		t.Fatal(err)
	}
	conf := `{"general":{"enableAutoUpdate":false,"enableAutoUpdateNotification":false},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}`
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	b.Env = append(b.Env, "GOOGLE_GEMINI_BASE_URL="+b.Server.URL, "GEMINI_API_KEY=fake-gemini-key-000", "TEST_GEMINI_HOME="+home)
	return b
}

// options bind the adapter to the bed: its environment and no MCP server.
func options(b *adaptertest.Bed) Options {
	return Options{Log: adaptertest.TraceLog(b.T, "ACP_TEST_TRACE"), Environ: b.Environ,
		MCPServers: func(string, []string) ([]mcpconfig.Server, error) { return nil, nil }}
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

// asText makes every structured value of the script the reply's text: the
// value is the final message.
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
