package adapter

import (
	"context"
	"errors"
	"slices"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Harness is one harness's registration: everything the rest of Stratos
// knows about it, declared once in the harness's own package and found
// from there by the agent host, `stratos tools list`, harness selection,
// the documentation checks and the conformance suite. Package harnesses
// lists the built-in ones, one line each
// (docs/design/harness-registration.md).
type Harness struct {
	// Name is what agents configure (`harness:`).
	Name string
	// Title names the harness for people ("Claude Code").
	Title string
	// New makes the harness's sessions.
	New Factory
	// Capabilities are what its adapter supports.
	Capabilities Capabilities
	// Tools are its built-in tools that allowedTools/disallowedTools
	// govern; nil for a harness without built-in tools.
	Tools *tools.Declaration
	// Selection are its model and provider rules; nil for a harness that
	// is only ever named explicitly (the test harness).
	Selection *modelsapi.HarnessRules
	// Models lists the models the harness itself offers; nil when it has
	// no list of its own (selection then knows only the packaged catalog).
	Models ModelLister
	// Auth is how the harness authenticates, for people and for checks
	// that need no process; Initialize checks it for real.
	Auth Auth
	// Docs are the documentation facts about it.
	Docs Docs
}

// ModelLister asks a harness for its own list of the models it can run
// through provider (a provider ID of its selection rules, e.g. "anthropic"
// or "ollama"), in the environment of its registration's options. It must
// respect ctx's deadline: selection bounds every list and falls back to the
// packaged catalog when the harness has none for provider (ErrNoModelList)
// or the list fails (docs/design/harness-registration.md).
type ModelLister func(ctx context.Context, provider string) (NativeModels, error)

// ErrNoModelList is what a ModelLister returns when the harness has no
// list of its own for the provider: selection then knows only the packaged
// catalog, and says so.
var ErrNoModelList = errors.New("the harness has no model list of its own for this provider")

// NativeModels is a harness's own model list for one provider.
type NativeModels struct {
	// Models are the harness's model strings, as a candidate's native
	// model names them (for OpenCode "<provider>/<model>", for Ollama the
	// tag with its ":latest").
	Models []string
	// Complete: a model absent from Models cannot be used; false when the
	// list may miss models the harness would still accept.
	Complete bool
	// Source names where the list came from, for people
	// ("opencode models anthropic").
	Source string
}

// Has reports whether the list names model.
func (n NativeModels) Has(model string) bool { return slices.Contains(n.Models, model) }

// Auth describes how a harness authenticates.
type Auth struct {
	// KeyVars are environment variables that carry an API key or token
	// the harness uses (names only: Stratos never reads their values here).
	KeyVars []string
	// Login is the harness's own login check Initialize runs, if any
	// ("claude auth status").
	Login string
}

// Docs are the documentation facts of a harness.
type Docs struct {
	// Page is its page under docs/ ("harness-claude-code.md").
	Page string
	// Binary is the CLI's executable name; BinaryEnv the variable that
	// names another one; Install what to install for it.
	Binary    string
	BinaryEnv string
	Install   string
}
