package gemini

import (
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Harness is the harness name agents configure.
const Harness = "gemini"

// EnvBinary names the gemini executable to use; default: `gemini` on PATH.
const EnvBinary = "STRATOS_GEMINI"

// docs are the harness's documentation facts; its launch finds the CLI
// by them too.
var docs = adapter.Docs{Page: "harness-gemini.md", Binary: "gemini", BinaryEnv: EnvBinary, Install: "@google/gemini-cli"}

// Registration is everything Stratos knows about the gemini harness
// (docs/design/harness-registration.md); package harnesses lists it.
func Registration(opts Options) adapter.Harness {
	return adapter.Harness{
		Name: Harness, Title: "Gemini CLI", New: NewFactory(opts), Capabilities: Capabilities,
		Tools: &Tools, Selection: &Selection, Auth: adapter.Auth{KeyVars: keyVars},
		Docs: docs,
	}
}

// Capabilities are what the gemini harness supports. Tool hooks cannot
// run: in ACP mode Gemini CLI 0.61 runs a tool without its own
// BeforeTool/AfterTool hooks, and asks session/request_permission only
// for the calls its policy does not allow by itself (a shell command it
// deems safe, such as echo or cat, runs unasked), with no way to give the
// model a reason or to change the input or the result. ACP has no
// structured-output request: the value is the final message, which the
// agent host validates. Its shell tool can leave a command running in the
// background (is_background); ACP has no request to stop it, so Cancel and
// Close end the tool sessions the CLI's descendants run in. Usage comes
// from the prompt answer's _meta.quota. A resumed run's agent continues
// its conversation with session/load of the session the CLI recorded in
// its home, kept in the state directory (isolate); when the load fails,
// the host carries the conversation in a new session's first prompt.
var Capabilities = adapter.Capabilities{
	ResumesSessions:       true,
	ExecutesTools:         true,
	StructuredOutput:      adapter.StructuredOutputSchema,
	SelectsModels:         true,
	ChecksAuthentication:  true,
	ReportsUsage:          true,
	BackgroundWork:        true,
	CancelsBackgroundWork: true,
	ToolHooksUnsupported:  "Gemini CLI 0.61 runs tools in ACP mode without its BeforeTool/AfterTool hooks and asks permission only for the calls its own policy does not allow (safe shell commands run unasked)",
}

// Selection are Gemini CLI's model and provider rules: Google's
// first-party harness, on the Gemini API with an API key. (Vertex AI needs
// the user's Google Cloud credentials inside the isolated configuration;
// not offered yet.)
var Selection = modelsapi.HarnessRules{
	Name: "Gemini CLI", FirstPartyCreator: "google", DefaultProvider: "google",
	Providers: map[string]*modelsapi.HarnessProvider{
		"google": {Note: "The Gemini API with GEMINI_API_KEY (sent as x-goog-api-key); GOOGLE_GEMINI_BASE_URL points it elsewhere."},
	},
}

// Tools are Gemini CLI's built-in tools; each removal is an entry of
// tools.exclude in the session's private settings.
var Tools = tools.Declaration{
	Harness: Harness,
	Removal: "tools.exclude in the session's private settings.json",
	Tools: []tools.Declared{
		tools.Removable("edit", "replace"),
		tools.Removable("glob", "glob"),
		tools.Removable("grep", "grep_search"),
		tools.Removable("question", "ask_user"),
		tools.Removable("read", "read_file", "read_many_files", "list_directory"),
		tools.Removable("shell", "run_shell_command"),
		tools.Removable("skill", "activate_skill"),
		tools.Removable("subagent", "invoke_agent"),
		tools.Removable("todo", "write_todos"),
		tools.Removable("web_fetch", "web_fetch"),
		tools.Removable("web_search", "google_web_search"),
		tools.Removable("write", "write_file"),
		tools.Removable("save_memory", "save_memory"),
	},
}
