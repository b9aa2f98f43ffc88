package acp

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// Isolation is a session's private configuration of a named ACP CLI: a
// home of its own for the CLI's settings (so the user's settings,
// extensions, MCP servers, memories and login never reach the session), no
// system settings, a temporary directory of its own, and the system prompt
// as a file. Gemini CLI and Qwen Code (a fork of it) read the same kinds of
// places from differently named variables (IsolationVars).
type Isolation struct {
	Home, SystemSettings, Tmp, SystemPrompt string
}

// IsolationVars name the variables a CLI reads its configuration from.
type IsolationVars struct {
	Home string
	// SystemSettings are the variables of its system settings and system
	// defaults files, both pointed at a file that does not exist: the
	// CLIs refuse a settings file below a world-writable directory such
	// as /tmp, and an absent one is simply no settings.
	SystemSettings []string
	// SystemPrompt takes a whole file that replaces the CLI's built-in
	// prompt; a command-line flag would show the prompt to every process
	// and bound its length.
	SystemPrompt string
	// Own are the user's variables of the CLI, which never reach the
	// session (Without).
	Own []string
}

// Isolate writes the private configuration into dir: settings as JSON
// at settingsFile (relative to home, which is made), the temporary
// directory, and the system prompt of spec when it has one.
func Isolate(dir, home, settingsFile string, settings any, spec adapter.Spec) (Isolation, error) {
	iso := Isolation{Home: home, SystemSettings: filepath.Join(dir, "no-system-settings.json"), Tmp: filepath.Join(dir, "tmp")}
	file := filepath.Join(home, settingsFile)
	for _, d := range []string{filepath.Dir(file), iso.Tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return iso, err
		}
	}
	s, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return iso, err
	}
	if err := os.WriteFile(file, s, 0o600); err != nil {
		return iso, err
	}
	if prompt := SystemPrompt(spec); prompt != "" {
		iso.SystemPrompt = filepath.Join(dir, "system.md")
		if err := os.WriteFile(iso.SystemPrompt, []byte(prompt), 0o600); err != nil {
			return iso, err
		}
	}
	return iso, nil
}

// Environ is env with the isolation's variables in place of the user's.
func (iso Isolation) Environ(env []string, vars IsolationVars) []string {
	add := []string{vars.Home + "=" + iso.Home}
	for _, v := range vars.SystemSettings {
		add = append(add, v+"="+iso.SystemSettings)
	}
	add = append(add, "TMPDIR="+iso.Tmp)
	if iso.SystemPrompt != "" {
		add = append(add, vars.SystemPrompt+"="+iso.SystemPrompt)
	}
	return Without(env, vars.Own, add...)
}
