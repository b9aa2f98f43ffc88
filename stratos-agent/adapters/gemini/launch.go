package gemini

import (
	"context"
	"encoding/json"

	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/adapters/acp"
)

// keyVars are the variables whose presence (never value) says the CLI
// can authenticate: the Gemini API key, sent as x-goog-api-key.
var keyVars = []string{"GEMINI_API_KEY"}

// authMethod is the ACP auth method of the Gemini API key.
const authMethod = "gemini-api-key"

// isolatedVars are the user's variables that would point the CLI at
// configuration of theirs; the launch replaces or drops them.
var isolatedVars = []string{"GEMINI_CLI_HOME", "GEMINI_SYSTEM_MD", "GEMINI_WRITE_SYSTEM_MD",
	"GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH", "TMPDIR"}

// launcher prepares one session's `gemini --acp`.
type launcher struct {
	opts     Options
	excluded []string
}

// launch checks the binary, the credentials and the model, writes the
// session's private configuration into dir and returns the command.
func (l launcher) launch(ctx context.Context, spec adapter.Spec, dir string) (acp.Launch, error) {
	env := l.opts.Environ()
	bin, err := acp.FindBinary(env, Harness, docs)
	if err != nil {
		return acp.Launch{}, err
	}
	if !acp.AnySet(env, keyVars) {
		return acp.Launch{}, rejection.New(rejection.Authentication,
			"harness %s has no usable authentication: set %s (Stratos runs Gemini CLI with a private configuration, so a Google login of the CLI is not used)",
			Harness, strings.Join(keyVars, " or ")).WithDetails(map[string]any{"harness": Harness})
	}
	model, err := acp.NativeModel(ctx, l.opts.Catalog, Harness, spec)
	if err != nil {
		return acp.Launch{}, err
	}
	out := acp.Launch{Path: bin, Args: []string{"--acp"}, AuthMethod: authMethod}
	if model != "" {
		out.Args = append(out.Args, "--model", model)
	}
	iso, err := isolate(dir, spec, newSettings(l.excluded, spec.AllowedMcps))
	if err != nil {
		return acp.Launch{}, fmt.Errorf("agent %q: gemini's private configuration: %w", spec.Name, err)
	}
	if spec.Resume != nil {
		if err := keepResumedSession(iso.home, spec.Resume.SessionID); err != nil {
			return acp.Launch{}, fmt.Errorf("agent %q: %w", spec.Name, err)
		}
	}
	out.Env = iso.environ(env)
	return out, nil
}

// isolation is a session's private configuration.
type isolation struct {
	home, systemSettings, tmp, systemPrompt string
}

// isolate writes the private configuration: a home for the CLI's own
// settings (no user settings, extensions, MCP servers, login or policies),
// empty system settings, a temporary directory of its own (the CLI writes
// error reports there) and the system prompt file.
//
// The home is in the session's state directory when it has one: Gemini
// CLI records each ACP session under its home (.gemini/tmp/<project>/
// chats), and session/load of a resumed run's agent reads it back from
// the copy the agent host makes. The home holds no credential (the key
// comes from the environment) and the settings are written anew at each
// launch.
func isolate(dir string, spec adapter.Spec, conf settings) (isolation, error) {
	home := filepath.Join(dir, "home")
	if spec.StateDir != "" {
		home = filepath.Join(spec.StateDir, "home")
	}
	// The system settings path names a file that does not exist: the CLI
	// refuses a settings file below a world-writable directory such as
	// /tmp, and an absent one is simply no settings.
	iso := isolation{home: home, systemSettings: filepath.Join(dir, "no-system-settings.json"), tmp: filepath.Join(dir, "tmp")}
	for _, d := range []string{filepath.Join(iso.home, ".gemini"), iso.tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return iso, err
		}
	}
	s, err := json.MarshalIndent(conf, "", "  ")
	if err != nil {
		return iso, err
	}
	if err := os.WriteFile(filepath.Join(iso.home, ".gemini", "settings.json"), s, 0o600); err != nil {
		return iso, err
	}
	if len(conf.MCP.Allowed) > 0 {
		if err := trust(iso.home, spec.WorkingDirectory); err != nil {
			return iso, err
		}
	}
	// Gemini CLI takes a system prompt only as a whole file
	// (GEMINI_SYSTEM_MD), which replaces its built-in one.
	if prompt := acp.SystemPrompt(spec); prompt != "" {
		iso.systemPrompt = filepath.Join(dir, "system.md")
		if err := os.WriteFile(iso.systemPrompt, []byte(prompt), 0o600); err != nil {
			return iso, err
		}
	}
	return iso, nil
}

// environ is env with the isolation's variables in place of the user's.
func (iso isolation) environ(env []string) []string {
	add := []string{"GEMINI_CLI_HOME=" + iso.home, "GEMINI_CLI_SYSTEM_SETTINGS_PATH=" + iso.systemSettings,
		"GEMINI_CLI_SYSTEM_DEFAULTS_PATH=" + iso.systemSettings, "TMPDIR=" + iso.tmp}
	if iso.systemPrompt != "" {
		add = append(add, "GEMINI_SYSTEM_MD="+iso.systemPrompt)
	}
	return acp.Without(env, isolatedVars, add...)
}

// settings are the session's settings.json: no update checks, no usage
// statistics or telemetry, the removed tools excluded, and only the
// selected MCP servers allowed.
type settings struct {
	General   generalSettings   `json:"general"`
	Privacy   privacySettings   `json:"privacy"`
	Telemetry telemetrySettings `json:"telemetry"`
	Tools     toolSettings      `json:"tools"`
	MCP       mcpSettings       `json:"mcp"`
}

// mcpSettings.Allowed names the servers Gemini CLI may start: the agent's
// allowedMcps, which session/new brings; an empty list allows every
// server, so the field is left out then (no server is configured).
type mcpSettings struct {
	Allowed []string `json:"allowed,omitempty"`
}

type generalSettings struct {
	EnableAutoUpdate             bool              `json:"enableAutoUpdate"`
	EnableAutoUpdateNotification bool              `json:"enableAutoUpdateNotification"`
	SessionRetention             retentionSettings `json:"sessionRetention"`
}

// retentionSettings turn the CLI's cleanup of recorded sessions off: the
// sessions it records live in the run's record, which owns their
// lifetime, and the cleanup the CLI runs at start races session/load of
// the session a resumed run's agent continues (a load then found "No
// previous sessions").
type retentionSettings struct {
	Enabled bool `json:"enabled"`
}

type privacySettings struct {
	UsageStatisticsEnabled bool `json:"usageStatisticsEnabled"`
}

type telemetrySettings struct {
	Enabled bool `json:"enabled"`
}

type toolSettings struct {
	Exclude []string `json:"exclude"`
}

func newSettings(excluded, mcps []string) settings {
	if excluded == nil {
		excluded = []string{}
	}
	return settings{Tools: toolSettings{Exclude: excluded}, MCP: mcpSettings{Allowed: mcps}}
}

// trust marks the working directory trusted in the private home: Gemini
// CLI starts a stdio MCP server only in a trusted folder. A trusted folder
// also loads the project's own .gemini/settings.json, GEMINI.md and agents
// (docs/harness-gemini.md), so only a session with MCP servers trusts it.
func trust(home, dir string) error {
	folders := map[string]string{dir: "TRUST_FOLDER"}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		folders[real] = "TRUST_FOLDER"
	}
	b, err := json.Marshal(folders)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(home, ".gemini", "trustedFolders.json"), b, 0o600)
}
