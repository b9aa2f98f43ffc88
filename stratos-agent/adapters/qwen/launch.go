package qwen

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/adapters/acp"
)

// keyVars are the variables whose presence (never value) says the CLI
// can authenticate: the OpenAI-compatible endpoint's key.
var keyVars = []string{"OPENAI_API_KEY"}

// authMethod is Qwen Code's ACP auth method for an OpenAI-compatible
// endpoint (OPENAI_API_KEY, at OPENAI_BASE_URL when set).
const authMethod = "openai"

// isolatedVars are the user's variables that would point the CLI at
// configuration of theirs, or choose its model or settings behind the
// private ones; the launch replaces or drops them.
var isolatedVars = []string{"QWEN_HOME", "QWEN_RUNTIME_DIR", "QWEN_SYSTEM_MD", "QWEN_WRITE_SYSTEM_MD",
	"QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_CODE_SYSTEM_DEFAULTS_PATH", "QWEN_CODE_TRUSTED_FOLDERS_PATH",
	"QWEN_CODE_MCP_APPROVALS_PATH", "QWEN_CODE_MEMORY_BASE_DIR", "QWEN_CODE_MODEL", "OPENAI_MODEL",
	"QWEN_USAGE_STATISTICS_ENABLED", "TMPDIR"}

// launcher prepares one session's `qwen --acp`.
type launcher struct {
	opts     Options
	excluded []string
	// hooks: the agent has tool hooks, which run through Qwen Code's own
	// (hooks.go).
	hooks bool
}

// launch checks the binary, the credentials and the model, writes the
// session's private configuration into dir and returns the command. The
// approval mode is yolo: every tool runs without a permission request
// (docs/harness-qwen.md, "Hooks"); its default mode, auto, would ask the
// model to classify each call.
func (l launcher) launch(ctx context.Context, spec adapter.Spec, dir string) (acp.Launch, error) {
	env := l.opts.Environ()
	bin, err := acp.FindBinary(env, Harness, docs)
	if err != nil {
		return acp.Launch{}, err
	}
	if !acp.AnySet(env, keyVars) {
		return acp.Launch{}, rejection.New(rejection.Authentication,
			"harness %s has no usable authentication: set %s (and OPENAI_BASE_URL for an endpoint other than OpenAI's; Stratos runs Qwen Code with a private configuration, so a login or settings of the CLI are not used)",
			Harness, strings.Join(keyVars, " or ")).WithDetails(map[string]any{"harness": Harness})
	}
	model, err := acp.NativeModel(ctx, l.opts.Catalog, Harness, spec)
	if err != nil {
		return acp.Launch{}, err
	}
	out := acp.Launch{Path: bin, Args: []string{"--acp", "--auth-type", authMethod, "--approval-mode", "yolo"}, AuthMethod: authMethod}
	if model != "" {
		out.Args = append(out.Args, "--model", model)
	}
	conf := newSettings(l.excluded, spec.AllowedMcps)
	if l.hooks {
		node, err := findNode(env, bin)
		if err != nil {
			return acp.Launch{}, err
		}
		conf.Hooks = newHookSettings(node, dir)
	}
	iso, err := isolate(dir, spec, conf)
	if err != nil {
		return acp.Launch{}, fmt.Errorf("agent %q: qwen's private configuration: %w", spec.Name, err)
	}
	out.Env = iso.Environ(env, isolationVars)
	return out, nil
}

// isolate writes the session's private configuration (acp.Isolate): its
// QWEN_HOME holds the CLI's settings, and no user settings, extensions,
// MCP servers, memories, skills or login.
func isolate(dir string, spec adapter.Spec, conf settings) (acp.Isolation, error) {
	return acp.Isolate(dir, filepath.Join(dir, "qwen-home"), "settings.json", conf, spec)
}

// isolationVars are where Qwen Code reads its configuration from.
var isolationVars = acp.IsolationVars{Home: "QWEN_HOME",
	SystemSettings: []string{"QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_CODE_SYSTEM_DEFAULTS_PATH"},
	SystemPrompt:   "QWEN_SYSTEM_MD", Own: isolatedVars}

// settings are the session's settings.json: no update checks, usage
// statistics or telemetry, no background model requests (the managed
// memory's extraction and consolidation, follow-up suggestions), no chat
// recording, the removed tools excluded, and only the selected MCP
// servers allowed.
type settings struct {
	General   generalSettings   `json:"general"`
	Privacy   privacySettings   `json:"privacy"`
	Telemetry telemetrySettings `json:"telemetry"`
	Memory    memorySettings    `json:"memory"`
	UI        uiSettings        `json:"ui"`
	Tools     toolSettings      `json:"tools"`
	MCP       mcpSettings       `json:"mcp"`
	// Hooks run the author's tool hooks (hooks.go); absent for an agent
	// without them.
	Hooks *hookSettings `json:"hooks,omitempty"`
}

type generalSettings struct {
	EnableAutoUpdate bool `json:"enableAutoUpdate"`
	ChatRecording    bool `json:"chatRecording"`
}

type privacySettings struct {
	UsageStatisticsEnabled bool `json:"usageStatisticsEnabled"`
}

type telemetrySettings struct {
	Enabled bool `json:"enabled"`
}

type memorySettings struct {
	EnableManagedAutoMemory bool `json:"enableManagedAutoMemory"`
	EnableManagedAutoDream  bool `json:"enableManagedAutoDream"`
}

type uiSettings struct {
	EnableFollowupSuggestions bool `json:"enableFollowupSuggestions"`
}

type toolSettings struct {
	Exclude []string `json:"exclude"`
}

// mcpSettings.Allowed names the servers Qwen Code may start: the agent's
// allowedMcps, which session/new brings; an empty list allows every
// server, so the field is left out then (no server is configured).
type mcpSettings struct {
	Allowed []string `json:"allowed,omitempty"`
}

func newSettings(excluded, mcps []string) settings {
	if excluded == nil {
		excluded = []string{}
	}
	return settings{Tools: toolSettings{Exclude: excluded}, MCP: mcpSettings{Allowed: mcps}}
}
