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
		if err := keepResumedSession(iso.Home, spec.Resume.SessionID); err != nil {
			return acp.Launch{}, fmt.Errorf("agent %q: %w", spec.Name, err)
		}
	}
	out.Env = iso.Environ(env, isolationVars)
	return out, nil
}

// isolate writes the session's private configuration (acp.Isolate).
//
// The home is in the session's state directory when it has one: Gemini
// CLI records each ACP session under its home (.gemini/tmp/<project>/
// chats), and session/load of a resumed run's agent reads it back from
// the copy the agent host makes. The home holds no credential (the key
// comes from the environment) and the settings are written anew at each
// launch. A session with MCP servers trusts its working directory, where
// the CLI would otherwise refuse them.
func isolate(dir string, spec adapter.Spec, conf settings) (acp.Isolation, error) {
	home := filepath.Join(dir, "home")
	if spec.StateDir != "" {
		home = filepath.Join(spec.StateDir, "home")
	}
	iso, err := acp.Isolate(dir, home, filepath.Join(".gemini", "settings.json"), conf, spec)
	if err != nil {
		return iso, err
	}
	if len(conf.MCP.Allowed) > 0 {
		if err := trust(iso.Home, spec.WorkingDirectory); err != nil {
			return iso, err
		}
	}
	return iso, nil
}

// isolationVars are where Gemini CLI reads its configuration from.
var isolationVars = acp.IsolationVars{Home: "GEMINI_CLI_HOME",
	SystemSettings: []string{"GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"},
	SystemPrompt:   "GEMINI_SYSTEM_MD", Own: isolatedVars}

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
