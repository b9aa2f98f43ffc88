package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

func TestThreadConfigIsolatesTheSession(t *testing.T) {
	removed, err := configOverrides(tools.Selection{DisallowedTools: []string{"web_search", "shell"}})
	if err != nil {
		t.Fatal(err)
	}
	c := threadConfig{spec: adapter.Spec{WorkingDirectory: "/w", Effort: "high"}, provider: provider{ID: "p", Table: map[string]any{"base_url": "u"}},
		model: "m", hooks: &hookEndpoint{url: "http://127.0.0.1:1/mcp"}, removed: removed, developer: "sys"}
	p := c.params()
	if p["approvalPolicy"] != "never" || p["sandbox"] != "danger-full-access" || p["model"] != "m" || p["modelProvider"] != "p" || p["developerInstructions"] != "sys" || p["cwd"] != "/w" {
		t.Errorf("params = %v", p)
	}
	cfg := p["config"].(map[string]any)
	want := map[string]any{
		"projects":               map[string]any{"/w": map[string]any{"trust_level": "untrusted"}},
		"web_search":             "disabled",
		"model_reasoning_effort": "high",
		// Noninteractive: nobody would answer the model's questions.
		"tools": map[string]any{"experimental_request_user_input": map[string]any{"enabled": false}},
	}
	for k, v := range want {
		if !reflect.DeepEqual(cfg[k], v) {
			t.Errorf("config[%s] = %v, want %v", k, cfg[k], v)
		}
	}
	features := cfg["features"].(map[string]any)
	if features["unbounded_connection_retries"] != false || features["shell_tool"] != false || features["unified_exec"] != false {
		t.Errorf("features = %v", features)
	}
	if cfg["bypass_hook_trust"] != true || cfg["mcp_servers"].(map[string]any)[hookServerName] == nil {
		t.Errorf("hooks are not wired: %v", cfg)
	}
}

func TestDeveloperInstructionsAreThePromptThenTheWorktreeContext(t *testing.T) {
	cases := map[string]adapter.Spec{
		"sys":        {SystemPrompt: "sys"},
		"ctx":        {HarnessContext: "ctx"},
		"sys\n\nctx": {SystemPrompt: "sys", HarnessContext: "ctx"},
	}
	for want, spec := range cases {
		if got := developerInstructions(spec); got != want {
			t.Errorf("%+v: %q, want %q", spec, got, want)
		}
	}
}

func TestTurnErrorsAreClassifiedFromCodexErrorInfo(t *testing.T) {
	cases := []struct{ info, code string }{
		{`"modelNotFound"`, agentproto.CodeModelUnavailable},
		{`"unauthorized"`, agentproto.CodeAuthentication},
		{`{"httpConnectionFailed":{"httpStatusCode":401}}`, agentproto.CodeAuthentication},
		{`{"httpConnectionFailed":{"httpStatusCode":404}}`, agentproto.CodeExecution},
		{`"internalServerError"`, agentproto.CodeExecution},
		// Prose alone never decides.
		{`"other"`, agentproto.CodeExecution},
	}
	for _, c := range cases {
		e := &turnError{Message: "The model `x` does not exist", Info: json.RawMessage(c.info)}
		if got := agentproto.CodeOf(e.classify("a", false)); got != c.code {
			t.Errorf("%s: %s, want %s", c.info, got, c.code)
		}
	}
}

func TestKeyProviderKeepsTheKeyInTheEnvironment(t *testing.T) {
	p, ok := keyProvider([]string{"OPENAI_BASE_URL=http://127.0.0.1:9/v1/", "OPENAI_API_KEY=sk-secret"})
	if !ok || p.ID != providerFromEnv || p.Table["base_url"] != "http://127.0.0.1:9/v1" || p.Table["env_key"] != "OPENAI_API_KEY" {
		t.Errorf("provider = %+v", p)
	}
	if b, _ := json.Marshal(p.Table); strings.Contains(string(b), "sk-secret") {
		t.Error("the key's value reached the provider table")
	}
	if _, ok := keyProvider([]string{"OPENAI_BASE_URL=http://127.0.0.1:9/v1"}); ok {
		t.Error("a key provider without a key")
	}
	p, _ = keyProvider([]string{"CODEX_API_KEY=k"})
	if p.Table["base_url"] != defaultBaseURL || p.Table["env_key"] != "CODEX_API_KEY" {
		t.Errorf("provider = %+v", p)
	}
}

func TestServerRequestsAreAnswered(t *testing.T) {
	s := &session{log: hclog.NewNullLogger()}
	for method, want := range map[string]string{
		"item/commandExecution/requestApproval": `{"decision":"accept"}`,
		"item/fileChange/requestApproval":       `{"decision":"accept"}`,
		"mcpServer/elicitation/request":         `{"_meta":null,"action":"accept","content":{}}`,
	} {
		params := json.RawMessage(`{"_meta":{"codex_approval_kind":"mcp_tool_call"}}`)
		res, err := s.onServerRequest(method, params)
		b, _ := json.Marshal(res)
		if err != nil || string(b) != want {
			t.Errorf("%s: %s, %v; want %s", method, b, err, want)
		}
	}
	res, _ := s.onServerRequest("mcpServer/elicitation/request", json.RawMessage(`{"mode":"form"}`))
	if res.(map[string]any)["action"] != "decline" {
		t.Errorf("a genuine elicitation was not declined: %v", res)
	}
	if _, err := s.onServerRequest("account/chatgptAuthTokens/refresh", nil); err == nil {
		t.Error("an unknown request was answered with success")
	}
}

func TestTheNativeBinaryIsFoundBesideTheNPMWrapper(t *testing.T) {
	root := t.TempDir()
	wrapper := filepath.Join(root, "node_modules", "@openai", "codex", "bin", "codex.js")
	native := filepath.Join(root, "node_modules", "@openai", "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin", "codex")
	helpers := filepath.Join(filepath.Dir(filepath.Dir(native)), "codex-path")
	for _, f := range []string{wrapper, native} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(helpers, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wrapper, []byte("#!/usr/bin/env node\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(native, []byte("\x7fELF"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "node_modules", ".bin", "codex")
	_ = os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink("../@openai/codex/bin/codex.js", link); err != nil {
		t.Fatal(err)
	}
	if targetTriple() != "x86_64-unknown-linux-musl" {
		t.Skip("the fixture is laid out for linux/amd64")
	}
	b, err := findBinary([]string{"STRATOS_CODEX=" + link})
	if err != nil || b.path != native || b.helpers != helpers {
		t.Errorf("binary = %+v, %v", b, err)
	}
	_, err = findBinary([]string{"STRATOS_CODEX=" + filepath.Join(root, "missing")})
	if agentproto.CodeOf(err) != agentproto.CodeHarnessUnavailable {
		t.Errorf("missing binary: %v", err)
	}
}

func TestALoginWithABaseURLAuthenticatesWithTheLogin(t *testing.T) {
	p := loginProvider([]string{"OPENAI_BASE_URL=http://127.0.0.1:9/v1"})
	if !p.LinkLogin || p.ID != providerFromEnv || p.Table["requires_openai_auth"] != true || p.Table["env_key"] != nil {
		t.Errorf("provider = %+v", p)
	}
	if p := loginProvider(nil); p.ID != providerOpenAI || p.Table != nil || !p.LinkLogin {
		t.Errorf("provider = %+v", p)
	}
}

// reportingHooks are hooks that say whether the agent has a tool hook.
type reportingHooks struct {
	adapter.Hooks
	has bool
}

func (h reportingHooks) HasToolHooks() bool { return h.has }

// The hook server runs only for an agent with a tool hook; hooks that do
// not say (the conformance suite's) get it as before.
func TestHookServerStartsOnlyForToolHooks(t *testing.T) {
	tests := []struct {
		name  string
		hooks adapter.Hooks
		want  bool
	}{
		{"no tool hook", reportingHooks{has: false}, false},
		{"a tool hook", reportingHooks{has: true}, true},
		{"hooks that do not say", struct{ adapter.Hooks }{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(Options{}.WithDefaults(), adapter.Spec{Name: "a"}, func(adapter.Event) {}, tt.hooks, nil)
			if err := s.prepare(binary{path: "codex"}, []string{"PATH=/usr/bin"}, provider{ID: "openai"}, "", nil); err != nil {
				t.Fatal(err)
			}
			defer s.releasePreparedLocked()
			if got := s.hookSrv != nil; got != tt.want {
				t.Errorf("hook server started = %v, want %v", got, tt.want)
			}
			if got := lookupEnv(s.env, hookTokenVar) != ""; got != tt.want {
				t.Errorf("%s in the app-server's environment = %v, want %v", hookTokenVar, got, tt.want)
			}
		})
	}
}

func TestTurnUsageNamesTheProviderAndTheThreadsModel(t *testing.T) {
	for _, c := range []struct {
		agentProvider, threadModel, want string
	}{
		{"", "gpt-5.5", "openai"},
		{"ollama", "qwen3.5:latest", "ollama"},
		{"azure", "gpt-5.5", "azure"},
	} {
		s := &session{spec: adapter.Spec{Provider: c.agentProvider}, model: "asked", threadModel: c.threadModel}
		var got []adapter.Event
		o := newObserver(func(e adapter.Event) { got = append(got, e) }, s.backend)
		o.observe("thread/tokenUsage/updated", &notice{TurnID: "t1", TokenUsage: &tokenUsage{Total: tokenCounts{InputTokens: 10, OutputTokens: 2}}})
		o.observe("turn/completed", &notice{TurnID: "t1"})
		u, ok := got[len(got)-1].Details.(*eventapi.Usage)
		if !ok || u.Provider != c.want || u.Model != c.threadModel || u.InputTokens != 10 {
			t.Errorf("provider %q: usage %+v; want provider %s, model %s", c.agentProvider, u, c.want, c.threadModel)
		}
	}
	s := &session{model: "asked"}
	if p, m := s.backend(); p != "openai" || m != "asked" {
		t.Errorf("before the thread reports its model: %s %s; want the model asked for", p, m)
	}
}

// Codex counts cached input inside inputTokens; Stratos's usage (and the
// catalog's prices) count cache reads apart, so a turn must not report them twice.
func TestTurnUsageCountsCacheReadsOnce(t *testing.T) {
	var got []adapter.Event
	o := newObserver(func(e adapter.Event) { got = append(got, e) }, (&session{model: "m"}).backend)
	o.observe("thread/tokenUsage/updated", &notice{TurnID: "t1", TokenUsage: &tokenUsage{Total: tokenCounts{InputTokens: 1000, CachedInputTokens: 800, OutputTokens: 20, TotalTokens: 1020}}})
	o.observe("turn/completed", &notice{TurnID: "t1"})
	u := got[len(got)-1].Details.(*eventapi.Usage)
	if u.InputTokens != 200 || u.CacheReadInputTokens != 800 || u.Total() != 1020 {
		t.Errorf("usage %+v; want inputTokens 200 (uncached), cacheReadInputTokens 800, 1020 in all", u)
	}
}
