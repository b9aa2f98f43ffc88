package qwen

import (
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Harness is the harness name agents configure.
const Harness = "qwen"

// EnvBinary names the qwen executable to use; default: `qwen` on PATH.
const EnvBinary = "STRATOS_QWEN"

// docs are the harness's documentation facts; its launch finds the CLI
// by them too.
var docs = adapter.Docs{Page: "harness-qwen.md", Binary: "qwen", BinaryEnv: EnvBinary, Install: "@qwen-code/qwen-code"}

// Registration is everything Stratos knows about the qwen harness
// (docs/design/harness-registration.md); package harnesses lists it.
func Registration(opts Options) adapter.Harness {
	return adapter.Harness{
		Name: Harness, Title: "Qwen Code", New: NewFactory(opts), Capabilities: Capabilities,
		Tools: &Tools, Selection: &Selection, Auth: adapter.Auth{KeyVars: keyVars},
		Docs: docs,
	}
}

// Capabilities are what the qwen harness supports. Tool hooks run through
// Qwen Code's own command hooks (hooks.go), which its ACP session runs
// around every call it executes; session/request_permission would not do:
// in the yolo approval mode Stratos runs it in Qwen Code asks it for no
// call, and an answer can neither give the model a reason nor change the
// result. Its ACP session applies no input a PreToolUse hook returns
// (modify fails the execute), and reads no decision from a
// PostToolUseFailure hook (a block of a failed call fails the execute).
// ACP has no structured-output request: the value is the final message,
// which the agent host validates. Usage comes from the _meta of the
// session/update that ends each model response.
var Capabilities = adapter.Capabilities{
	ExecutesTools:         true,
	AfterHookKeepsFailure: "Qwen Code 0.24 reads no decision from a PostToolUseFailure hook",
	StructuredOutput:      adapter.StructuredOutputSchema,
	SelectsModels:         true,
	ChecksAuthentication:  true,
	ReportsUsage:          true,
	BackgroundWork:        true,
	CancelsBackgroundWork: true,
}

// Selection are Qwen Code's model and provider rules: Alibaba's
// first-party harness, on an OpenAI-compatible Chat Completions endpoint
// (OPENAI_BASE_URL) with OPENAI_API_KEY: DashScope's compatible mode for
// Qwen models, the OpenAI API for OpenAI's.
var Selection = modelsapi.HarnessRules{
	Name: "Qwen Code", FirstPartyCreator: "alibaba", Creators: []string{"alibaba", "openai"},
	DefaultProvider: "alibaba", DefaultProviderByCreator: map[string]string{"openai": "openai"},
	Providers: map[string]*modelsapi.HarnessProvider{
		"alibaba": {Note: "DashScope's OpenAI-compatible endpoint (international): OPENAI_BASE_URL=https://dashscope-intl.aliyuncs.com/compatible-mode/v1 and OPENAI_API_KEY."},
		"openai":  {Note: "The OpenAI Chat Completions API with OPENAI_API_KEY; OPENAI_BASE_URL points it at another compatible endpoint."},
	},
}

// Tools are Qwen Code's built-in tools; each removal is an entry of
// tools.exclude in the session's private settings.
var Tools = tools.Declaration{
	Harness: Harness,
	Removal: "tools.exclude in the session's private settings.json",
	Tools: append([]tools.Declared{
		tools.Removable("edit", "edit"),
		tools.Removable("glob", "glob"),
		tools.Removable("grep", "grep_search"),
		tools.Removable("question", "ask_user_question"),
		tools.Removable("read", "read_file", "list_directory"),
		tools.Removable("shell", "run_shell_command"),
		tools.Removable("skill", "skill"),
		tools.Removable("subagent", "agent", "list_agents"),
		tools.Removable("todo", "todo_write"),
		tools.Removable("web_fetch", "web_fetch"),
		tools.Removable("web_search", "web_search"),
		tools.Removable("write", "write_file"),
		tools.Removable("save_memory", "save_memory"),
	}, ownNames("enter_plan_mode", "exit_plan_mode", "get_goal", "notebook_edit", "update_goal")...),
}

// ownNames declares tools only Qwen Code has, selected by their own names
// (docs/tools.md).
func ownNames(names ...string) []tools.Declared {
	out := make([]tools.Declared, len(names))
	for i, n := range names {
		out[i] = tools.Removable(n, n)
	}
	return out
}
