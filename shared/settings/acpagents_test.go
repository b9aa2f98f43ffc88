package settings

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/clierr"
)

func TestACPAgentsAreReadByName(t *testing.T) {
	s, err := Parse("settings.json", []byte(`{"acpAgents": {
		"qwen": {"command": "qwen", "args": ["--acp"], "env": {"OPENAI_API_KEY": "${QWEN_KEY}"}},
		"my-agent.2": {"command": "/opt/agent/bin/agent", "authMethod": "api-key", "systemPromptFileVar": "AGENT_SYSTEM_MD"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]agentproto.ACPAgent{
		"qwen":       {Command: "qwen", Args: []string{"--acp"}, Env: map[string]string{"OPENAI_API_KEY": "${QWEN_KEY}"}},
		"my-agent.2": {Command: "/opt/agent/bin/agent", AuthMethod: "api-key", SystemPromptFileVar: "AGENT_SYSTEM_MD"},
	}
	if !reflect.DeepEqual(s.ACPAgents, want) {
		t.Errorf("acpAgents = %+v\nwant %+v", s.ACPAgents, want)
	}
}

func TestACPAgentsErrorsNameTheEntry(t *testing.T) {
	for _, c := range []struct{ json, key, says string }{
		{`{"acpAgents": []}`, "acpAgents", "must be an object"},
		{`{"acpAgents": {"-x": {"command": "a"}}}`, "acpAgents.-x", "must start with a letter or digit"},
		{`{"acpAgents": {"q": "qwen"}}`, "acpAgents.q", "must be an object"},
		{`{"acpAgents": {"q": {}}}`, "acpAgents.q", "command is required"},
		{`{"acpAgents": {"q": {"command": "bin/qwen"}}}`, "acpAgents.q", `"bin/qwen" must be a name on PATH or an absolute path`},
		{`{"acpAgents": {"q": {"command": "qwen", "arg": []}}}`, "acpAgents.q", `unknown field "arg"`},
		{`{"acpAgents": {"q": {"command": "qwen", "systemPromptFileVar": "A-B"}}}`, "acpAgents.q", `"A-B" is not a variable name`},
	} {
		_, err := Parse("/h/.stratos/settings.json", []byte(c.json))
		ce := clierr.As(err)
		if err == nil || ce.Details["key"] != c.key || !strings.Contains(ce.Message, c.says) || !strings.Contains(ce.Message, "/h/.stratos/settings.json") {
			t.Errorf("%s: %v (details %v), want the file, key %q and %q", c.json, err, ce.Details, c.key, c.says)
		}
	}
}
