package gemini

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

// toolsOffered runs one prompt on the real CLI with spec edited by edit and
// the user's environment extended by userEnv, and returns the tools and the
// system instruction the model was offered.
func toolsOffered(t *testing.T, userEnv []string, edit func(*adapter.Spec)) (offered, system []string) {
	t.Helper()
	b := geminiBed(t, adaptertest.ParseScript(t, `{"turns":[{"match":{"marker":"[hello]"},"reply":[{"text":"hi"}]}]}`), true)
	b.Env = append(b.Env, userEnv...)
	spec := adapter.Spec{Name: "tester", Models: []string{"google/gemini-2.5-flash"}, WorkingDirectory: b.Work}
	if edit != nil {
		edit(&spec)
	}
	a := b.Open(NewFactory(b.options()), spec, noToolHooks{&adaptertest.Hooks{}})
	if _, err := a.Execute(b.Context(), "[hello] there"); err != nil {
		t.Fatal(err)
	}
	reqs := adaptertest.GeminiRequests(b.Server.Log().Entries())
	if len(reqs) == 0 {
		t.Fatal("no model request")
	}
	return b.Server.Log().Entries()[len(b.Server.Log().Entries())-1].Tools, reqs[0].System
}

// The user's own Gemini CLI configuration (a home whose settings exclude
// the shell tool, a system prompt file) never reaches the session.
func TestTheUsersConfigurationDoesNotLeakIn(t *testing.T) {
	user := t.TempDir()
	if err := os.MkdirAll(filepath.Join(user, ".gemini"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(user, ".gemini", "settings.json"), []byte(`{"tools":{"exclude":["run_shell_command"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	userPrompt := filepath.Join(user, "system.md")
	if err := os.WriteFile(userPrompt, []byte("USER-SYSTEM-PROMPT-4d2"), 0o600); err != nil {
		t.Fatal(err)
	}
	offered, system := toolsOffered(t, []string{"GEMINI_CLI_HOME=" + user, "GEMINI_SYSTEM_MD=" + userPrompt}, nil)
	if !slices.Contains(offered, "run_shell_command") {
		t.Errorf("tools %v: the user's settings removed the shell tool", offered)
	}
	if strings.Contains(strings.Join(system, "\n"), "USER-SYSTEM-PROMPT-4d2") {
		t.Errorf("the user's system prompt file reached the model")
	}
}

// disallowedTools become tools.exclude: the model is not offered them.
func TestDisallowedToolsAreNotOffered(t *testing.T) {
	offered, _ := toolsOffered(t, nil, func(s *adapter.Spec) { s.Tools = tools.Selection{DisallowedTools: []string{"shell", "web_search"}} })
	if slices.Contains(offered, "run_shell_command") || slices.Contains(offered, "google_web_search") {
		t.Errorf("tools %v still offer a disallowed tool", offered)
	}
	if !slices.Contains(offered, "read_file") {
		t.Errorf("tools %v: read_file was removed too", offered)
	}
}
