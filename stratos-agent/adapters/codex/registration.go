package codex

import (
	"strconv"
	"strings"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Harness is the harness name agents configure.
const Harness = "codex"

// EnvBinary names the codex binary to use (the native binary or the npm
// wrapper, whose native binary is then used); default: `codex` on PATH.
const EnvBinary = "STRATOS_CODEX"

var _ adapter.Adapter = (*session)(nil)

// Registration is everything Stratos knows about the codex harness
// (docs/design/harness-registration.md); package harnesses lists it.
func Registration(opts Options) adapter.Harness {
	return adapter.Harness{
		Name: Harness, Title: "Codex", New: NewFactory(opts), Capabilities: Capabilities,
		Tools: &Tools, Selection: &Selection, Models: models(opts),
		Auth: adapter.Auth{KeyVars: []string{"OPENAI_API_KEY"}, Login: "codex login status"},
		Docs: adapter.Docs{Page: "harness-codex.md", Binary: "codex", BinaryEnv: EnvBinary, Install: "@openai/codex"},
	}
}

// Capabilities are what the codex adapter supports. Efforts are the
// reasoning efforts Codex 0.171 accepts (model_reasoning_effort). Codex's
// PostToolUse "block" replaces what the model reads, failed calls
// included. outputSchema constrains the final message; Stratos validates
// it. Background commands (a command the model left running past its
// yield time) are cleaned by Cancel through
// thread/backgroundTerminals/clean.
var Capabilities = adapter.Capabilities{
	Efforts:                  []string{"none", "minimal", "low", "medium", "high", "xhigh"},
	ExecutesTools:            true,
	HooksModifyArguments:     true,
	AfterHookReplacesFailure: true,
	StructuredOutput:         adapter.StructuredOutputSchema,
	BackgroundWork:           true,
	CancelsBackgroundWork:    true,
	SelectsModels:            true,
	ChecksAuthentication:     true,
	ReportsUsage:             true,
	ResumesSessions:          true,
}

// Selection are Codex's model and provider rules.
var Selection = modelsapi.HarnessRules{
	Name: "Codex", FirstPartyCreator: "openai", DefaultProvider: "openai",
	Providers: map[string]*modelsapi.HarnessProvider{
		"openai": {ModelProvider: "openai", ProviderTable: "built-in", Note: "OpenAI API key or a saved ChatGPT login."},
		"azure": {ModelProvider: "azure", ProviderTable: "user",
			Note: "Only the user's [model_providers.azure] table from $CODEX_HOME/config.toml, copied into Stratos's isolated configuration; environment-key authentication and the Responses API. Native IDs are Azure deployment names."},
		"ollama": {ModelProvider: "stratos-ollama", ProviderTable: "stratos", NativeNames: true,
			Note: "A keyless Responses provider at $OLLAMA_HOST/v1 written by Stratos; Codex reserves the IDs openai, ollama and lmstudio."},
	},
}

// Tools are Codex's built-in tools; each removal is a configuration
// override (codex --config key=value, written into the thread's
// configuration). Codex has no read tool; edit and write are apply_patch,
// which stays.
var Tools = tools.Declaration{
	Harness: Harness,
	Removal: "configuration keys set off (codex --config key=value)",
	Tools: append([]tools.Declared{
		tools.AlwaysOn("edit", "apply_patch"),
		tools.Removable("question", off("tools.experimental_request_user_input.enabled")),
		// Codex 0.171: unified_exec alone left exec_command in place
		// (docs/design/harness-tools.md); shell_tool switches the shell tool
		// family off.
		tools.Removable("shell", off("features.shell_tool"), off("features.unified_exec")),
		tools.Removable("subagent", off("features.multi_agent"), off("features.multi_agent_v2")),
		// features.web_search is accepted but has no effect; only the
		// top-level web_search = "disabled" removes the tool
		// (docs/design/harness-tools.md).
		tools.Removable("web_search", `web_search="disabled"`),
		tools.AlwaysOn("write", "apply_patch"),
	}, features("agent_message_board", "code_mode", "current_time_reminder", "deferred_executor", "goals",
		"image_generation", "memories", "request_permissions_tool", "sleep_tool", "token_budget", "tool_suggest",
		"view_image")...),
}

// off is the override that switches a boolean configuration key off.
func off(key string) string { return key + "=false" }

// features declares tools only Codex has, each removed by switching its
// feature off and selected by the feature's name.
func features(names ...string) []tools.Declared {
	out := make([]tools.Declared, len(names))
	for i, n := range names {
		out[i] = tools.Removable(n, off("features."+n))
	}
	return out
}

// setting is one Codex configuration override.
type setting struct {
	Key   string
	Value any // false, or "disabled" for web_search
}

// configOverrides returns the configuration settings that remove the
// tools sel removes, sorted by key.
func configOverrides(sel tools.Selection) ([]setting, error) {
	natives, err := Tools.Natives(sel)
	if err != nil {
		return nil, err
	}
	out := make([]setting, len(natives))
	for i, n := range natives {
		key, value, _ := strings.Cut(n, "=")
		out[i] = setting{Key: key, Value: false}
		if s, err := strconv.Unquote(value); err == nil {
			out[i].Value = s
		}
	}
	return out, nil
}
