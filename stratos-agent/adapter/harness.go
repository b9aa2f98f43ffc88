package adapter

import (
	"context"

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

// ModelLister asks a harness for its own model list under env (the agent
// host's environment). It must respect ctx's deadline: selection bounds
// it and falls back to the packaged catalog when it fails.
type ModelLister func(ctx context.Context, env []string) (NativeModels, error)

// NativeModels is a harness's own model list.
type NativeModels struct {
	// Models are the harness's model strings (for OpenCode
	// "<provider>/<model>").
	Models []string
	// Complete: a model absent from Models cannot be used; false when the
	// list may miss models the harness would still accept.
	Complete bool
	// Source names where the list came from, for people
	// ("opencode models").
	Source string
}

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
