package claudecode

import (
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Harness is the harness name agents configure.
const Harness = "claude-code"

// EnvBinary names the claude binary to use; default: `claude` on PATH.
const EnvBinary = "STRATOS_CLAUDE"

var _ adapter.Adapter = (*session)(nil)

// Registration is everything Stratos knows about the claude-code harness
// (docs/design/harness-registration.md); package harnesses lists it.
func Registration(opts Options) adapter.Harness {
	return adapter.Harness{
		Name: Harness, Title: "Claude Code", New: NewFactory(opts), Capabilities: Capabilities,
		Tools: &Tools, Selection: &Selection,
		Auth: adapter.Auth{KeyVars: credentialVars, Login: "claude auth status"},
		Docs: adapter.Docs{Page: "harness-claude-code.md", Binary: "claude", BinaryEnv: EnvBinary, Install: "@anthropic-ai/claude-code"},
	}
}

// Capabilities are what the claude-code adapter supports. Efforts are the
// ones Claude Code 2.1.332 accepts (--effort): the CLI ignores any other
// value with a warning, so the adapter rejects them as configuration
// errors instead. A PostToolUseFailure hook can only add context, so an
// afterToolCall "block" cannot hide a failed tool's error.
var Capabilities = adapter.Capabilities{
	Efforts:                  []string{"low", "medium", "high", "xhigh", "max"},
	ExecutesTools:            true,
	HooksModifyArguments:     true,
	AfterHookReplacesFailure: false,
	StructuredOutput:         adapter.StructuredOutputTool,
	BackgroundWork:           true,
	CancelsBackgroundWork:    true,
	SelectsModels:            true,
	ChecksAuthentication:     true,
	ReportsUsage:             true,
	ResumesSessions:          true,
}

// Selection are Claude Code's model and provider rules: it runs Anthropic
// models only, and each backend other than the Anthropic API is switched
// on by an environment flag.
var Selection = modelsapi.HarnessRules{
	Name: "Claude Code", FirstPartyCreator: "anthropic", Creators: []string{"anthropic"}, DefaultProvider: "anthropic",
	Providers: map[string]*modelsapi.HarnessProvider{
		"anthropic": {Note: "Anthropic API or an existing Claude Code login; no backend flag."},
		"amazon-bedrock": {Env: map[string]string{"CLAUDE_CODE_USE_BEDROCK": "1"},
			Note: "AWS region and credentials come from the user's AWS configuration."},
		"google-vertex-anthropic": {Env: map[string]string{"CLAUDE_CODE_USE_VERTEX": "1"},
			Note: "CLOUD_ML_REGION and ANTHROPIC_VERTEX_PROJECT_ID come from the user's environment."},
		"azure-cognitive-services": {Env: map[string]string{"CLAUDE_CODE_USE_FOUNDRY": "1"},
			Note: "Microsoft Foundry. Chosen because this Models.dev provider documents the Foundry Anthropic endpoint https://<resource>.services.ai.azure.com/anthropic; not verified against live Azure."},
	},
}

// Tools are Claude Code's built-in tools; removed names go to
// --disallowedTools. Bare tool names remove the tools from the model's list
// (docs/design/claude-code-cli.md, "Built-in tools"). Claude Code 2.1.332
// has no Glob or Grep by default and adds them when Bash is removed, so
// removing shell leaves glob and grep available unless the selection
// removes them too.
var Tools = tools.Declaration{
	Harness: Harness,
	Removal: "tool names passed to --disallowedTools",
	Tools: append([]tools.Declared{
		tools.Removable("edit", "Edit"),
		tools.Removable("glob", "Glob"),
		tools.Removable("grep", "Grep"),
		tools.Removable("question", "AskUserQuestion"),
		tools.Removable("read", "Read"),
		tools.Removable("shell", "Bash"),
		tools.Removable("skill", "Skill"),
		// Claude Code reports the subagent tool as Task in system/init and
		// sends it to the API as Agent (docs/design/harness-tools.md); both
		// names are removed. ListAgents and SendMessage only talk to
		// subagents.
		tools.Removable("subagent", "Agent", "ListAgents", "SendMessage", "Task"),
		// The task list is TodoWrite in older builds and the
		// TaskCreate/TaskGet/TaskList/TaskUpdate family in 2.1.332.
		tools.Removable("todo", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TodoWrite"),
		tools.Removable("web_fetch", "WebFetch"),
		tools.Removable("web_search", "WebSearch"),
		tools.Removable("write", "Write"),
	}, ownNames("Artifact", "CronCreate", "CronDelete", "CronList", "EnterWorktree", "ExitWorktree", "Monitor",
		"NotebookEdit", "RemoteTrigger", "ReportFindings", "ScheduleWakeup", "SendFeedback", "ShareOnboardingGuide",
		"TaskStop", "Workflow")...),
}

// ownNames declares tools only Claude Code has, selected by their own
// names (docs/tools.md).
func ownNames(names ...string) []tools.Declared {
	out := make([]tools.Declared, len(names))
	for i, n := range names {
		out[i] = tools.Removable(n, n)
	}
	return out
}
