package opencode

import (
	"slices"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Harness is the harness name agents configure.
const Harness = "opencode"

// EnvBinary names the opencode binary to use; default: `opencode` on PATH.
const EnvBinary = "STRATOS_OPENCODE"

var _ adapter.Adapter = (*session)(nil)

// Registration is everything Stratos knows about the opencode harness
// (docs/design/harness-registration.md); package harnesses lists it.
func Registration(opts Options) adapter.Harness {
	return adapter.Harness{
		Name: Harness, Title: "OpenCode", New: NewFactory(opts), Capabilities: Capabilities,
		Tools: &Tools, Selection: &Selection, Models: models(opts), Auth: adapter.Auth{KeyVars: authKeyVars()},
		Docs: adapter.Docs{Page: "harness-opencode.md", Binary: "opencode", BinaryEnv: EnvBinary, Install: "opencode-ai"},
	}
}

// Capabilities are what the opencode adapter supports. Efforts are the
// names OpenCode gives its reasoning variants across providers; which of
// them a model has depends on the provider and the model, so Initialize
// checks the effort against the model's own variants (checkServer) and
// each prompt names it as its variant. A plugin's tool.execute.before mutates the arguments in place;
// tool.execute.after replaces what the model reads, failed commands
// included (OpenCode reports a non-zero exit as a completed call). The
// native `format` json_schema makes the model answer through a
// StructuredOutput tool; Stratos validates the value. OpenCode's bash tool
// runs commands to their end, so there is no background work. A session
// keeps OpenCode's database in its state directory and a resumed one
// continues its session there (resume.go).
var Capabilities = adapter.Capabilities{
	Efforts:                  []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"},
	ExecutesTools:            true,
	HooksModifyArguments:     true,
	AfterHookReplacesFailure: true,
	StructuredOutput:         adapter.StructuredOutputSchema,
	SelectsModels:            true,
	ChecksAuthentication:     true,
	ReportsUsage:             true,
	ResumesSessions:          true,
}

// Selection are OpenCode's model and provider rules: it reads the same
// Models.dev catalog, so every catalog provider is one of its providers,
// and names a model as "<provider>/<model>"; it runs models of every
// creator, so automatic selection's second pass goes through it.
var Selection = modelsapi.HarnessRules{
	Name: "OpenCode", CatalogProviders: true, SecondPass: true, QualifiedModels: true,
	DefaultProviderByCreator: map[string]string{"anthropic": "anthropic", "google": "google", "openai": "openai"},
	Providers: map[string]*modelsapi.HarnessProvider{
		"ollama": {ProviderID: "ollama", NativeNames: true,
			Note: "A Stratos-managed OpenAI-compatible provider filled from the local Ollama inventory; Models.dev has no local ollama provider (only ollama-cloud)."},
	},
}

// Tools are OpenCode's built-in tools; each removal is a permission set to
// deny in the server and session rules.
var Tools = tools.Declaration{
	Harness: Harness,
	Removal: "permissions set to deny in the server and session rules",
	Tools: []tools.Declared{
		tools.Removable("codesearch", "codesearch"),
		// OpenCode's edit permission governs edit, write and apply_patch, so
		// write maps to the same permission (see Together).
		tools.Removable("edit", "edit"),
		tools.Removable("glob", "glob"),
		tools.Removable("grep", "grep"),
		tools.Removable("question", "question"),
		tools.Removable("read", "read"),
		tools.Removable("shell", "bash"),
		tools.Removable("skill", "skill"),
		tools.Removable("subagent", "task"),
		tools.Removable("todo", "todowrite"),
		tools.Removable("web_fetch", "webfetch"),
		tools.Removable("web_search", "websearch"),
		tools.Removable("write", "edit"),
	},
	Together: []tools.Pair{{A: "edit", B: "write", Why: "OpenCode's edit permission governs both"}},
}

// authKeyVars are every variable keyVars names, sorted.
func authKeyVars() []string {
	var out []string
	for _, vars := range keyVars {
		out = append(out, vars...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
