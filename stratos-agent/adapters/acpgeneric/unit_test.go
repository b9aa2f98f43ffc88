package acpgeneric

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

type noToolHooks struct{ *adaptertest.Hooks }

func (noToolHooks) HasToolHooks() bool { return false }

// What the protocol cannot deliver is a configuration error when the
// agent is made, saying why; a plain agent is made.
func TestUnsupportedFeaturesAreConfigurationErrors(t *testing.T) {
	agent := func() *agentproto.ACPAgent { return &agentproto.ACPAgent{Command: "some-agent"} }
	plain := noToolHooks{&adaptertest.Hooks{}}
	cases := []struct {
		name  string
		spec  adapter.Spec
		hooks adapter.Hooks
		want  string
	}{
		{"no acp field", adapter.Spec{}, plain, "acp: {command, args, env}"},
		{"tool hooks", adapter.Spec{ACP: agent()}, &adaptertest.Hooks{}, "beforeToolCall or afterToolCall"},
		{"provider", adapter.Spec{ACP: agent(), Provider: "ollama"}, plain, "cannot choose provider ollama"},
		{"effort", adapter.Spec{ACP: agent(), Effort: "high"}, plain, `cannot set effort "high"`},
		{"allowedTools", adapter.Spec{ACP: agent(), Tools: tools.Selection{AllowedTools: []string{"read"}}}, plain, "allowedTools"},
		{"empty disallowedTools", adapter.Spec{ACP: agent(), Tools: tools.Selection{DisallowedTools: []string{}}}, plain, "allowedTools, disallowedTools"},
		{"system prompt", adapter.Spec{ACP: agent(), SystemPrompt: "be brief"}, plain, "acp.systemPromptFileVar"},
		{"worktree context", adapter.Spec{ACP: agent(), HarnessContext: "a checkout"}, plain, "acp.systemPromptFileVar"},
		{"unset reference", adapter.Spec{ACP: &agentproto.ACPAgent{Command: "a", Env: map[string]string{"KEY": "${NOT_SET_HERE}"}}}, plain,
			"acp.env.KEY: environment variable NOT_SET_HERE is not set"},
	}
	f := NewFactory(Options{Environ: func() []string { return []string{"PATH=/bin"} }})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.spec.Name = "agent"
			_, err := f(c.spec, func(adapter.Event) {}, c.hooks)
			if agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want a configuration error containing %q", err, c.want)
			}
		})
	}
	withPrompt := agent()
	withPrompt.SystemPromptFileVar = "AGENT_SYSTEM_MD"
	if _, err := f(adapter.Spec{Name: "ok", ACP: withPrompt, SystemPrompt: "be brief"}, func(adapter.Event) {}, plain); err != nil {
		t.Fatalf("a plain agent with a system-prompt variable: %v", err)
	}
}

func TestEnvReferences(t *testing.T) {
	host := []string{"TOKEN=abc", "EMPTY="}
	got, err := resolveEnv(map[string]string{"B": "Bearer ${TOKEN}", "A": "cost $$5"}, host)
	if err != nil || !slices.Equal(got, []string{"A=cost $5", "B=Bearer abc"}) {
		t.Fatalf("resolved %q, %v", got, err)
	}
	if _, err := resolveEnv(map[string]string{"K": "${EMPTY}"}, host); err == nil || !strings.Contains(err.Error(), "acp.env.K") {
		t.Errorf("an empty variable: %v", err)
	}
	if _, err := resolveEnv(map[string]string{"K": "${bad-name}"}, host); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("a malformed reference: %v", err)
	}
	if _, err := resolveEnv(map[string]string{"K": "${TOKEN}"}, host); err != nil && strings.Contains(err.Error(), "abc") {
		t.Errorf("an error holds a value: %v", err)
	}
}

// The agent sees PATH, the locale, private directories and its configured
// variables: not the user's HOME, configuration variables or credentials.
func TestLaunchIsolatesTheAgent(t *testing.T) {
	wf := t.TempDir()
	bin := filepath.Join(wf, "bin", "agent")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	host := []string{"PATH=/usr/bin", "LANG=C.UTF-8", "LC_ALL=C", "HOME=/home/user", "XDG_CONFIG_HOME=/home/user/.config",
		"ANTHROPIC_API_KEY=secret", "GEMINI_CLI_HOME=/home/user/g", "TOKEN=t0"}
	l := launcher{opts: Options{Environ: func() []string { return host }}.WithDefaults(),
		agent: agentproto.ACPAgent{Command: "./bin/agent", Args: []string{"--acp"}, AuthMethod: "key", SystemPromptFileVar: "AGENT_MD"}, env: []string{"AGENT_TOKEN=t0"}}
	dir := t.TempDir()
	got, err := l.launch(t.Context(), adapter.Spec{Name: "a", WorkflowDir: wf, SystemPrompt: "SYS", HarnessContext: "WT"}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != bin || !slices.Equal(got.Args, []string{"--acp"}) || got.AuthMethod != "key" {
		t.Errorf("launch %+v", got)
	}
	env := map[string]string{}
	for _, kv := range got.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	for _, k := range []string{"ANTHROPIC_API_KEY", "GEMINI_CLI_HOME", "TOKEN"} {
		if _, ok := env[k]; ok {
			t.Errorf("the agent inherits %s", k)
		}
	}
	for k, want := range map[string]string{"PATH": "/usr/bin", "LANG": "C.UTF-8", "LC_ALL": "C", "AGENT_TOKEN": "t0"} {
		if env[k] != want {
			t.Errorf("%s=%q, want %q", k, env[k], want)
		}
	}
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "TMPDIR"} {
		if fi, err := os.Stat(env[k]); err != nil || !fi.IsDir() || !strings.HasPrefix(env[k], dir+"/") {
			t.Errorf("%s=%q is not a private directory of the session: %v", k, env[k], err)
		}
	}
	if b, err := os.ReadFile(env["AGENT_MD"]); err != nil || string(b) != "SYS\n\nWT" {
		t.Errorf("system prompt file %q: %q, %v", env["AGENT_MD"], b, err)
	}
}

func TestMissingProgramIsARejection(t *testing.T) {
	for _, command := range []string{"no-such-agent", "./no/such/agent"} {
		_, err := program(command, t.TempDir(), t.TempDir())
		if r, ok := rejection.As(err); !ok || r.Reason != rejection.HarnessUnavailable || !strings.Contains(err.Error(), command) {
			t.Errorf("%s: %v", command, err)
		}
	}
}

func TestAuthRequiredIsARejection(t *testing.T) {
	r, ok := rejection.As(refusal(adapter.Spec{Name: "a"}, &jsonrpc.RemoteError{Code: -32000, Message: "Authentication required"}, "", false))
	if !ok || r.Reason != rejection.Authentication {
		t.Fatalf("auth_required: %+v", r)
	}
	if refusal(adapter.Spec{Name: "a"}, &jsonrpc.RemoteError{Code: -32603, Message: "internal"}, "", false) != nil {
		t.Errorf("another failure became a rejection")
	}
}
