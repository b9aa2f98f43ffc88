// Package pipeline is Stratos's one preparation path: build, describe,
// schema and (through `stratos-build prepare`) run all prepare workflows
// here, in the order docs/building.md lists:
//
//  1. read metadata and scan imports for required children (no code runs);
//     reject cycles and references to missing workflows;
//  2. install dependencies, the shared SDK included;
//  3. discover the declared MCP servers and generate their wrappers
//     (generated/mcp/<server>.ts; every explicit build rediscovers);
//  4. build required children first, recursively;
//  5. load each child's compiled definition and validate its schemas;
//  6. generate the child's wrapper before the parent compiles;
//  7. compile the parent, load its definition, validate its schemas and
//     generate its own wrapper;
//  8. write the build record, last, only after everything succeeded.
//
// A fresh workflow is reused without running npm, node or tsc.
//
// A build goes through stages, each a small type with one job that owns
// its own state and hands explicit values to the next:
//
//   - planner (plan.go) refuses what cannot build (step 1), decides what
//     is reused, and selects the workflows a batch builds together;
//   - preparer (prepare.go) does steps 2 and 3 and the checks around them
//     (MCP wrappers, the agents section, the root's SDK through rootSetup,
//     npm dependencies) and stages a job: the entrypoint and a new staging
//     directory to compile into;
//   - compiler (compile.go) runs tsc for one job, or shared runs for many;
//   - definitions (load.go, kept.go) loads definitions with node, in
//     loaders started beside the compile, or keeps a build record's;
//   - emitter (wrappers.go) writes the wrappers parents compile against;
//   - recorder (record.go) writes the build record last, makes the
//     staging directory durable and publishes it as dist/.
//
// They share three services: the toolchain, ensured on first use; the
// phase the build is in, for the error of an interrupted one; and its
// warnings. The Builder orders the work and keeps the results: Prepare
// builds one workflow at a time, children first, and PrepareBatch
// (batch.go) puts many through the same stages together. See
// docs/design/build-pipeline.md.
package pipeline

import (
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/sdk"
)

// Build statuses (JSON contract of `stratos build`).
const (
	StatusBuilt    = "built"
	StatusUpToDate = "up-to-date"
	StatusFailed   = "failed"
	// StatusMCPPrepared: an explicit build of a workflow without its
	// entrypoint yet generated its MCP wrappers (the manifest-first flow);
	// the workflow is not built.
	StatusMCPPrepared = "mcp-prepared"
)

// Failure reasons (JSON contract of `stratos build`).
const (
	ReasonInvalidWorkflow    = "invalid-workflow"
	ReasonAgentConfig        = "agent-config-invalid"
	ReasonCycle              = "cycle"
	ReasonMissingReference   = "missing-reference"
	ReasonImportOutsideRoot  = "import-outside-root"
	ReasonDependencyFailed   = "dependency-failed"
	ReasonDependencies       = "dependencies-failed"
	ReasonPackageMetadata    = "package-metadata"
	ReasonSDKShadowed        = "sdk-shadowed"
	ReasonTypeErrors         = "type-errors"
	ReasonDefinitionInvalid  = "definition-invalid"
	ReasonDefinitionTimeout  = "definition-timeout"
	ReasonSchemaConventions  = "schema-conventions"
	ReasonWrapper            = "wrapper-failed"
	ReasonToolchain          = "toolchain-missing" // node, npm or tsc is absent and could not be found or provisioned
	ReasonInternal           = "internal-error"
	ReasonEntrypointNotFound = "entrypoint-missing"
	ReasonMCPConfig          = "mcp-config-invalid" // workflow.yaml's mcp section is invalid
	ReasonMCP                = "mcp-failed"         // an MCP server could not be discovered or its wrapper generated
)

// Diagnostic is one message of a failed build. Type errors keep tsc's own
// text in Message and are also split into file, line, column and code.
type Diagnostic struct {
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Code    string `json:"code,omitempty"`
}

// Result is the outcome of preparing one workflow.
type Result struct {
	Name        string       `json:"name"`
	Dir         string       `json:"dir"`
	Status      string       `json:"status"`
	Reason      string       `json:"reason,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`

	// Key is the freshness key of the workflow as built or reused.
	Key string `json:"-"`
	// Definition holds the loaded input/output schemas when this run had to
	// load them (a fresh workflow's are loaded only on demand).
	Definition *sdk.Definition `json:"-"`
	// CompiledEntry is the compiled entrypoint, relative to Dir.
	CompiledEntry string `json:"-"`

	workflow *discovery.Workflow
}

// Failed reports whether the result is a failure.
func (r *Result) Failed() bool { return r.Status == StatusFailed }

// Workflow returns the discovered workflow the result is about (nil for an
// invalid workflow).
func (r *Result) Workflow() *discovery.Workflow { return r.workflow }

func failed(w *discovery.Workflow, reason string, diags ...Diagnostic) *Result {
	if diags == nil {
		diags = []Diagnostic{}
	}
	return &Result{Name: w.Manifest.Name, Dir: w.Dir, Status: StatusFailed, Reason: reason, Diagnostics: diags, workflow: w}
}

func message(format string, args ...any) Diagnostic {
	return Diagnostic{Message: sprintf(format, args...)}
}
