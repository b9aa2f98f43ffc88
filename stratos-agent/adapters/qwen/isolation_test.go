package qwen

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// offered runs one prompt on the real CLI with spec edited by edit and the
// user's environment extended by userEnv, and returns the tools and the
// system messages of the first model request, and how many requests the
// prompt made.
func offered(t *testing.T, userEnv []string, edit func(*adapter.Spec)) (toolNames, system []string, requests int) {
	t.Helper()
	b := qwenBed(t, adaptertest.ParseScript(t, `{"turns":[{"match":{"marker":"[hello]"},"reply":[{"text":"hi"}]}]}`), true)
	b.Env = append(b.Env, userEnv...)
	spec := adapter.Spec{Name: "tester", Models: []string{"openai/fake-model"}, WorkingDirectory: b.Work}
	if edit != nil {
		edit(&spec)
	}
	a := b.Open(NewFactory(b.options()), spec, noToolHooks{&adaptertest.Hooks{}})
	if _, err := a.Execute(b.Context(), "[hello] there"); err != nil {
		t.Fatal(err)
	}
	entries := b.Server.Log().Entries()
	if len(entries) == 0 {
		t.Fatal("no model request")
	}
	return entries[0].Tools, entries[0].System, len(entries)
}

// The user's own Qwen Code configuration (a home whose settings exclude
// the shell tool and whose QWEN.md adds to every prompt, a system prompt
// file) never reaches the session.
func TestTheUsersConfigurationDoesNotLeakIn(t *testing.T) {
	user := t.TempDir()
	if err := os.WriteFile(filepath.Join(user, "settings.json"), []byte(`{"tools":{"exclude":["run_shell_command"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(user, "QWEN.md"), []byte("USER-MEMORY-7c1"), 0o600); err != nil {
		t.Fatal(err)
	}
	userPrompt := filepath.Join(user, "system.md")
	if err := os.WriteFile(userPrompt, []byte("USER-SYSTEM-PROMPT-4d2"), 0o600); err != nil {
		t.Fatal(err)
	}
	toolNames, system, _ := offered(t, []string{"QWEN_HOME=" + user, "QWEN_SYSTEM_MD=" + userPrompt}, nil)
	if !slices.Contains(toolNames, "run_shell_command") {
		t.Errorf("tools %v: the user's settings removed the shell tool", toolNames)
	}
	all := strings.Join(system, "\n")
	if strings.Contains(all, "USER-SYSTEM-PROMPT-4d2") || strings.Contains(all, "USER-MEMORY-7c1") {
		t.Errorf("the user's system prompt file or QWEN.md reached the model")
	}
}

// disallowedTools become tools.exclude: the model is not offered them;
// and a prompt is one model request (no memory extraction or follow-up
// suggestion of the CLI's own).
func TestDisallowedToolsAreNotOffered(t *testing.T) {
	toolNames, _, requests := offered(t, nil, func(s *adapter.Spec) {
		s.Tools = tools.Selection{DisallowedTools: []string{"shell", "subagent"}}
	})
	if slices.Contains(toolNames, "run_shell_command") || slices.Contains(toolNames, "agent") {
		t.Errorf("tools %v still offer a disallowed tool", toolNames)
	}
	if !slices.Contains(toolNames, "read_file") {
		t.Errorf("tools %v: read_file was removed too", toolNames)
	}
	if requests != 1 {
		t.Errorf("%d model requests for one prompt answered in one turn, want 1", requests)
	}
}
