package pipeline

import (
	"context"
	"io"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/shared/toolchain"
)

// Builder prepares the workflows of one discovery root. It is used for one
// command invocation: results are memoized so each workflow is prepared at
// most once, however many parents require it. Its own job is to order the
// work and keep the results; each step is a stage's (see the package
// note): it plans, prepares, compiles, loads definitions, emits wrappers
// and records builds through them, one workflow at a time (Prepare) or
// many together (PrepareBatch, batch.go).
type Builder struct {
	root   *discovery.Root
	log    hclog.Logger
	stderr io.Writer

	plan  planner
	prep  *preparer
	setup *rootSetup
	comp  *compiler
	defs  *definitions
	emit  *emitter
	rec   *recorder

	progress *progress
	warnings *warnings
	// phases and steps profile the build at debug level (see phases.go);
	// nil when not profiling.
	phases *phaseClock
	steps  *stepTimes

	results map[*discovery.Workflow]*Result
	// batched holds the results of PrepareBatch until Prepare reaches
	// each workflow in its own order.
	batched map[*discovery.Workflow]*Result
	order   []*Result
}

// builderConfig is what a Builder is made of.
type builderConfig struct {
	root   *discovery.Root
	log    hclog.Logger
	stderr io.Writer // receives the workflow's own output while its module loads
	// toolchain provides node, npm and tsc. It is only asked for when
	// something must be built or loaded, so reusing fresh builds needs none.
	toolchain func(ctx context.Context) (*toolchain.Toolchain, error)
	// definitionTimeout bounds each definition load; zero means
	// settings.DefaultDefinitionTimeout.
	definitionTimeout time.Duration
	// explicit is set for `stratos build`: every declared MCP server is
	// rediscovered, and a workflow without its entrypoint may still have
	// its MCP wrappers generated (the manifest-first flow).
	explicit bool
	// checkModels rechecks the local models workflow.yaml declares for
	// every workflow prepared, fresh or not (explicit builds only).
	checkModels bool
	// mcpAhead is what was discovered of MCP servers before the root lock
	// was taken (see discoverMCPAhead); nil for nothing.
	mcpAhead mcpDiscovered
	// wanted is the workflow whose definition the command prints
	// (describe, schema): it is always loaded.
	wanted *discovery.Workflow
	// phases is the build's profile (phases.go); nil when not profiling.
	phases *phaseClock
}

// newBuilder wires the stages of a builder of c.root.
func newBuilder(c builderConfig) *Builder {
	rootDir := c.root.Root.Dir
	tools := &toolchainSource{ensure: c.toolchain}
	prog := &progress{}
	warns := &warnings{log: c.log}
	var steps *stepTimes
	if c.phases != nil {
		steps = newStepTimes()
	}
	b := &Builder{
		root: c.root, log: c.log, stderr: c.stderr,
		plan:     planner{root: c.root, checkModels: c.checkModels},
		progress: prog, warnings: warns, phases: c.phases, steps: steps,
		results: map[*discovery.Workflow]*Result{}, batched: map[*discovery.Workflow]*Result{},
	}
	b.setup = &rootSetup{root: c.root, log: c.log, tools: tools, progress: prog, steps: steps, warnings: warns, prepared: b.prepared}
	b.prep = &preparer{root: c.root, log: c.log, stderr: c.stderr, explicit: c.explicit, checkModels: c.checkModels,
		tools: tools, progress: prog, steps: steps, rootSetup: b.setup, mcpAhead: c.mcpAhead}
	b.comp = &compiler{rootDir: rootDir, log: c.log, tools: tools, progress: prog, steps: steps}
	b.emit = &emitter{rootDir: rootDir, steps: steps}
	b.defs = &definitions{rootDir: rootDir, stderr: c.stderr, timeout: c.definitionTimeout, tools: tools, progress: prog,
		steps: steps, wrappers: b.emit, wanted: c.wanted}
	b.rec = &recorder{rootDir: rootDir, log: c.log, steps: steps, wrappers: b.emit}
	return b
}

// InterruptedError returns the error of a preparation whose context was
// cancelled (SIGINT/SIGTERM), naming the phase it stopped in; nil while ctx
// is live.
func (b *Builder) InterruptedError(ctx context.Context) error { return b.progress.interrupted(ctx) }

// Results returns every result in completion order: children before parents.
func (b *Builder) Results() []*Result { return b.order }

// Warnings returns soft problems found while preparing (tracked generated
// files, for example).
func (b *Builder) Warnings() []string { return b.warnings.list }

// LoadDefinition loads the definition of a workflow whose build is current
// (for describe and schema on a reused build).
func (b *Builder) LoadDefinition(ctx context.Context, w *discovery.Workflow) (*sdk.Definition, *Result) {
	return b.defs.fromDist(ctx, w)
}

// prepared reports whether the builder has reported w's result already.
func (b *Builder) prepared(w *discovery.Workflow) bool {
	_, ok := b.results[w]
	return ok
}

// Prepare makes w and everything it requires built, reusing fresh builds.
func (b *Builder) Prepare(ctx context.Context, w *discovery.Workflow) *Result {
	if r, ok := b.results[w]; ok {
		return r
	}
	if r, ok := b.batched[w]; ok {
		// Its children were built in the batch too: report them first,
		// as a one-by-one build does.
		for _, name := range w.Sources.References {
			b.Prepare(ctx, b.root.Workflows[name])
		}
		return b.remember(w, r)
	}
	return b.remember(w, b.prepare(ctx, w))
}

// remember memoizes w's result for the rest of the invocation.
func (b *Builder) remember(w *discovery.Workflow, r *Result) *Result {
	r.workflow = w
	if r.CompiledEntry == "" {
		r.CompiledEntry = freshness.CompiledEntry(w.Dir, w.Manifest.Entrypoint)
	}
	b.results[w] = r
	b.order = append(b.order, r)
	return r
}

// prepare is one workflow's preparation: its plan, its children first
// (step 4), the checks that precede the reuse decision, then its reuse
// or its build.
func (b *Builder) prepare(ctx context.Context, w *discovery.Workflow) *Result {
	// Step 1: the static import scan happened in discovery; act on it.
	if fail := b.plan.refusal(w); fail != nil {
		return fail
	}
	children := map[string]*Result{}
	for _, name := range w.Sources.References {
		cr := b.Prepare(ctx, b.root.Workflows[name])
		if cr.Failed() {
			return failed(w, ReasonDependencyFailed, message("required workflow %s failed to build (%s)", name, cr.Reason))
		}
		children[name] = cr
	}
	if fail := b.prep.models(ctx, w); fail != nil {
		return fail
	}
	// Step 3 comes before the reuse decision: a changed wrapper makes the
	// compiled output stale even though no authored file changed.
	mcp, fail := b.prep.mcp(ctx, w)
	if fail != nil {
		return fail
	}
	if b.plan.reuses(w, b.setup.sdkCurrent(), mcp) {
		return b.reuse(ctx, w)
	}
	return b.build(ctx, w, children, mcp)
}

// reuse returns a fresh workflow as up to date. Its own wrapper is restored
// if it went missing or was edited: wrappers of every built workflow must be
// current for parents to compile against.
func (b *Builder) reuse(ctx context.Context, w *discovery.Workflow) *Result {
	// The agents section and its test scripts are checked every time: a
	// test script in its own file does not make the workflow stale.
	if fail := b.prep.agentConfig(ctx, w); fail != nil {
		return fail
	}
	r := &Result{Name: w.Manifest.Name, Dir: w.Dir, Status: StatusUpToDate, Diagnostics: []Diagnostic{}, Key: w.Key}
	if rec := w.Record(); rec != nil {
		r.CompiledEntry = rec.Entry
		if b.emit.current(w) {
			return r
		}
	}
	def, fail := b.defs.fromDist(ctx, w)
	if fail != nil {
		return fail
	}
	r.Definition = def
	if _, fail := b.emit.write(w, def); fail != nil {
		return fail
	}
	return r
}

// build builds one workflow whose children are built (their results in
// children): prepared, its children's wrappers current (steps 5 and 6),
// compiled and loaded (step 7), recorded and published (step 8).
func (b *Builder) build(ctx context.Context, w *discovery.Workflow, children map[string]*Result, mcp mcpStep) *Result {
	if fail := b.prep.setup(ctx, w); fail != nil {
		return fail
	}
	for _, name := range w.Sources.References {
		if fail := b.childWrapper(ctx, w, b.root.Workflows[name], children[name]); fail != nil {
			return fail
		}
	}
	j, fail := b.prep.stage(w, mcp)
	if fail != nil {
		return fail
	}
	// The loader starts once tsc runs: node's start and the SDK's import
	// overlap with the compile. It exits while the record is written.
	var loaders []*sdk.Loader
	defer func() { closeLoaders(loaders) }()
	j.fail = b.comp.one(ctx, w, j.entry, j.out.dir, func() { loaders = b.defs.startLoaders(ctx, 1, b.stderr) })
	if j.fail == nil {
		b.defs.loadAll(ctx, []*job{j}, loaders, func(*job) {})
	}
	if j.fail != nil {
		return j.failure()
	}
	return b.rec.finish(w, children, j.out, j.def)
}

// childWrapper makes child's wrapper, which parent compiles against, the
// one the child's current build produced (cr is its result): written
// again unless the one on disk is that one.
func (b *Builder) childWrapper(ctx context.Context, parent, child *discovery.Workflow, cr *Result) *Result {
	if cr.Definition == nil {
		if b.emit.current(child) {
			return nil
		}
		def, fail := b.defs.fromDist(ctx, child)
		if fail != nil {
			return failed(parent, ReasonDependencyFailed, message("load required workflow %s: %s", child.Manifest.Name, fail.Diagnostics[0].Message))
		}
		cr.Definition = def
	}
	if _, fail := b.emit.write(child, cr.Definition); fail != nil {
		return failed(parent, ReasonDependencyFailed, fail.Diagnostics...)
	}
	return nil
}
