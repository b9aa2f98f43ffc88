package gemini

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/adapters/acp"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// An agent with tool hooks is refused when it is made, naming the reason;
// one without them is made.
func TestToolHooksAreAConfigurationError(t *testing.T) {
	f := NewFactory(Options{})
	_, err := f(adapter.Spec{Name: "hooked"}, func(adapter.Event) {}, &adaptertest.Hooks{})
	if agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), "ACP mode") {
		t.Fatalf("error %v, want a configuration error saying why", err)
	}
	if _, err := f(adapter.Spec{Name: "plain"}, func(adapter.Event) {}, noToolHooks{&adaptertest.Hooks{}}); err != nil {
		t.Fatalf("an agent without tool hooks: %v", err)
	}
}

type noToolHooks struct{ *adaptertest.Hooks }

func (noToolHooks) HasToolHooks() bool { return false }

func TestMissingBinaryAndKeyAreRejections(t *testing.T) {
	if _, err := acp.FindBinary([]string{"PATH=" + t.TempDir()}, Harness, docs); !isRejection(err, rejection.HarnessUnavailable) {
		t.Errorf("no binary: %v", err)
	}
	l := launcher{opts: Options{Environ: func() []string { return []string{EnvBinary + "=/bin/true", "GOOGLE_API_KEY=x"} }}.WithDefaults()}
	_, err := l.launch(t.Context(), adapter.Spec{Name: "a"}, t.TempDir())
	if !isRejection(err, rejection.Authentication) || !strings.Contains(err.Error(), "GEMINI_API_KEY") {
		t.Errorf("no key: %v", err)
	}
}

func isRejection(err error, reason rejection.Reason) bool {
	r, ok := rejection.As(err)
	return ok && r.Reason == reason
}

func TestModelNotFoundIsARejectionOnlyBeforeWork(t *testing.T) {
	spec := adapter.Spec{Name: "a", Models: []string{"google/gemini-nope"}}
	re := &jsonrpc.RemoteError{Code: 500, Message: "models/gemini-nope is not found for API version v1beta, or is not supported for generateContent."}
	r, ok := rejection.As(refusal(spec, re, "", false))
	if !ok || r.Reason != rejection.ModelUnavailable || !r.TryNext {
		t.Fatalf("before work: %+v", r)
	}
	if r, _ := rejection.As(refusal(spec, re, "", true)); r == nil || r.TryNext {
		t.Errorf("after work the selector must not move on: %+v", r)
	}
	if refusal(spec, &jsonrpc.RemoteError{Code: 500, Message: "quota exceeded"}, "", false) != nil {
		t.Errorf("another failure became a rejection")
	}
}

func TestUsageAndToolNames(t *testing.T) {
	u := usage(json.RawMessage(`{"quota":{"token_count":{"input_tokens":200,"output_tokens":20}}}`))
	if u == nil || u.InputTokens != 200 || u.OutputTokens != 20 {
		t.Errorf("usage %+v", u)
	}
	if usage(json.RawMessage(`{}`)) != nil {
		t.Errorf("usage without token counts")
	}
	if got := toolName("run_shell_command__call_1", "execute"); got != "run_shell_command" {
		t.Errorf("tool name %q", got)
	}
	if got := toolName("plain-id", "execute"); got != "execute" {
		t.Errorf("tool name without prefix %q", got)
	}
}
