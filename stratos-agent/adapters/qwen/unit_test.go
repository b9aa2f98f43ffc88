package qwen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/adapters/acp"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// The relay's answers are Qwen Code's hook output: PreToolUse decides with
// permissionDecision, PostToolUse replaces a result with continue false
// and stopReason; a hook input of another event is refused.
func TestHookAnswersAreQwenCodesHookOutput(t *testing.T) {
	pre, err := readHook([]byte(`{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_use_id":"toolu_1","tool_call_id":"call_1"}`))
	if err != nil || pre.Event != acp.HookBefore || pre.ToolCallID != "call_1" || pre.Name != "run_shell_command" {
		t.Fatalf("PreToolUse input read as %+v, %v", pre, err)
	}
	for d, want := range map[acp.HookDecision]string{
		{Block: true, Reason: "no"}: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`,
		{}:                          `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"allowed by the agent's beforeToolCall"}}`,
	} {
		if got := string(answerHook(pre, d)); got != want {
			t.Errorf("answer to %+v: %s, want %s", d, got, want)
		}
	}
	post, err := readHook([]byte(`{"hook_event_name":"PostToolUse","tool_name":"read_file","tool_call_id":"call_2","tool_response":{"llmContent":"text","returnDisplay":"x"}}`))
	if err != nil || post.Event != acp.HookAfter || string(post.Output) != `"text"` {
		t.Fatalf("PostToolUse input read as %+v, %v", post, err)
	}
	if got := string(answerHook(post, acp.HookDecision{Block: true, Reason: "withheld"})); got != `{"continue":false,"stopReason":"withheld"}` {
		t.Errorf("block answer %s", got)
	}
	if got := string(answerHook(post, acp.HookDecision{})); got != `{"continue":true}` {
		t.Errorf("allow answer %s", got)
	}
	if _, err := readHook([]byte(`{"hook_event_name":"Stop"}`)); err == nil {
		t.Errorf("a Stop hook input was read as a tool hook")
	}
}

type noToolHooks struct{ *adaptertest.Hooks }

func (noToolHooks) HasToolHooks() bool { return false }

func TestMissingBinaryAndKeyAreRejections(t *testing.T) {
	if _, err := acp.FindBinary([]string{"PATH=" + t.TempDir()}, Harness, docs); !isRejection(err, rejection.HarnessUnavailable) {
		t.Errorf("no binary: %v", err)
	}
	l := launcher{opts: Options{Environ: func() []string { return []string{EnvBinary + "=/bin/true", "DASHSCOPE_API_KEY=x"} }}.WithDefaults()}
	_, err := l.launch(t.Context(), adapter.Spec{Name: "a"}, t.TempDir())
	if !isRejection(err, rejection.Authentication) || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("no key: %v", err)
	}
}

func isRejection(err error, reason rejection.Reason) bool {
	r, ok := rejection.As(err)
	return ok && r.Reason == reason
}

// The user's Qwen Code configuration never reaches the CLI: the launch
// replaces QWEN_HOME, the system settings and the system prompt file,
// and drops the variables that would choose a model or settings behind
// the private ones; the private settings turn off the CLI's own model
// requests and name only the selected MCP servers.
func TestLaunchIsolatesTheUsersConfiguration(t *testing.T) {
	user := []string{EnvBinary + "=/bin/true", "OPENAI_API_KEY=k", "QWEN_HOME=/home/u/.qwen", "QWEN_SYSTEM_MD=/home/u/system.md",
		"QWEN_RUNTIME_DIR=/home/u/rt", "OPENAI_MODEL=theirs", "QWEN_CODE_TRUSTED_FOLDERS_PATH=/home/u/t.json", "KEEP=1"}
	l := launcher{opts: Options{Environ: func() []string { return user }}.WithDefaults(), excluded: []string{"run_shell_command"}}
	dir := t.TempDir()
	out, err := l.launch(t.Context(), adapter.Spec{Name: "a", SystemPrompt: "Be brief.", AllowedMcps: []string{"tracker"}}, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range out.Env {
		if strings.Contains(kv, "/home/u") || strings.HasPrefix(kv, "OPENAI_MODEL=") {
			t.Errorf("the user's %s reached the CLI", kv)
		}
	}
	home := filepath.Join(dir, "qwen-home")
	for _, want := range []string{"QWEN_HOME=" + home, "QWEN_SYSTEM_MD=" + filepath.Join(dir, "system.md"), "KEEP=1", "OPENAI_API_KEY=k"} {
		if !slices.Contains(out.Env, want) {
			t.Errorf("env lacks %s", want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "system.md")); string(b) != "Be brief." {
		t.Errorf("system prompt file %q", b)
	}
	var s settings
	b, err := os.ReadFile(filepath.Join(home, "settings.json"))
	if err != nil || json.Unmarshal(b, &s) != nil {
		t.Fatalf("settings: %v\n%s", err, b)
	}
	if s.Memory.EnableManagedAutoMemory || s.UI.EnableFollowupSuggestions || s.Privacy.UsageStatisticsEnabled || s.General.EnableAutoUpdate ||
		!slices.Equal(s.Tools.Exclude, []string{"run_shell_command"}) || !slices.Equal(s.MCP.Allowed, []string{"tracker"}) {
		t.Errorf("settings %+v", s)
	}
	if !slices.Equal(out.Args, []string{"--acp", "--auth-type", "openai", "--approval-mode", "yolo"}) {
		t.Errorf("args %q", out.Args)
	}
}

func TestModelNotFoundIsARejectionOnlyBeforeWork(t *testing.T) {
	spec := adapter.Spec{Name: "a", Models: []string{"openai/nope"}}
	re := &jsonrpc.RemoteError{Code: -32603, Message: "404 The model `nope` does not exist or you do not have access to it."}
	r, ok := rejection.As(refusal(spec, re, "", false))
	if !ok || r.Reason != rejection.ModelUnavailable || !r.TryNext {
		t.Fatalf("before work: %+v", r)
	}
	if r, _ := rejection.As(refusal(spec, re, "", true)); r == nil || r.TryNext {
		t.Errorf("after work the selector must not move on: %+v", r)
	}
	if refusal(spec, &jsonrpc.RemoteError{Code: -32603, Message: "429 quota exceeded"}, "", false) != nil {
		t.Errorf("another failure became a rejection")
	}
}

func TestUsageToolNamesAndAsides(t *testing.T) {
	u := usage(json.RawMessage(`{"usage":{"inputTokens":100,"outputTokens":10,"totalTokens":110,"thoughtTokens":2,"cachedReadTokens":40},"durationMs":7}`))
	if u == nil || u.InputTokens != 100 || u.OutputTokens != 10 || u.CacheReadInputTokens != 40 || u.ReasoningOutputTokens != 2 {
		t.Errorf("usage %+v", u)
	}
	if usage(json.RawMessage(`{"source":"x"}`)) != nil {
		t.Errorf("usage without token counts")
	}
	if got := toolName(json.RawMessage(`{"toolName":"run_shell_command","provenance":"builtin"}`)); got != "run_shell_command" {
		t.Errorf("tool name %q", got)
	}
	if !aside(json.RawMessage(`{"source":"background_task_completed","qwenDiscreteMessage":true}`)) || aside(json.RawMessage(`{"usage":{}}`)) {
		t.Errorf("asides misread")
	}
}
