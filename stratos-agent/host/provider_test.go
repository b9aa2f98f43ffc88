package host

import (
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

func TestCheckProviderOllama(t *testing.T) {
	for _, c := range []struct {
		spec adapter.Spec
		want string // "" = accepted
	}{
		{adapter.Spec{Provider: "ollama", Harness: "codex", Models: []string{"qwen3"}}, ""},
		{adapter.Spec{Provider: "ollama", Harness: "opencode"}, ""},
		{adapter.Spec{Provider: "azure", Effort: "high"}, ""},
		{adapter.Spec{Provider: "ollama"}, "it has no harness"},
		{adapter.Spec{Provider: "ollama", Harness: "claude-code"}, "it has harness claude-code"},
		{adapter.Spec{Provider: "ollama", Harness: "codex", Effort: "low"}, "takes no effort"},
	} {
		err := checkProvider(c.spec, []string{"codex", "opencode"})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.spec, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || agentproto.CodeOf(err) != agentproto.CodeConfiguration):
			t.Errorf("%+v: got %v, want a configuration error with %q", c.spec, err, c.want)
		}
	}
}
