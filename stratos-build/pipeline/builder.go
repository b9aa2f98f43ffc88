package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/stratos-build/wrappergen"
)

// Builder prepares the workflows of one discovery root. It is used for one
// command invocation: results are memoized so each workflow is prepared at
// most once, however many parents require it.
type Builder struct {
	Root   *discovery.Root
	Log    hclog.Logger
	Stderr io.Writer // receives the workflow's own output while its module loads
	// Toolchain provides node, npm and tsc. It is only asked for when
	// something must be built or loaded, so reusing fresh builds needs none.
	Toolchain func(ctx context.Context) (*toolchain.Toolchain, error)
	// DefinitionTimeout bounds each definition load; zero means
	// settings.DefaultDefinitionTimeout.
	DefinitionTimeout time.Duration
	// Explicit is set for `stratos build`: every declared MCP server is
	// rediscovered, and a workflow without its entrypoint may still have
	// its MCP wrappers generated (the manifest-first flow).
	Explicit bool
	// CheckModels rechecks the local models workflow.yaml declares for
	// every workflow prepared, fresh or not (explicit builds only).
	CheckModels bool

	tc        *toolchain.Toolchain
	rootReady bool
	// sdkReinstalled is set when this invocation installed the root's
	// SDK: no definition is kept from a record then (see kept.go).
	sdkReinstalled bool
	// definitionWanted is the workflow whose definition the command
	// prints (describe, schema): it is always loaded.
	definitionWanted *discovery.Workflow
	results          map[*discovery.Workflow]*Result
	// batched holds the results of PrepareBatch until Prepare reaches
	// each workflow in its own order.
	batched  map[*discovery.Workflow]*Result
	order    []*Result
	warnings []string
	// sdkKnown and sdkOK memoize sdk.Current for the invocation: it hashes
	// the embedded SDK, which once per workflow made a no-op build of a
	// large root several times slower than listing it.
	sdkKnown, sdkOK bool
	// phase and phaseWorkflow say what the builder is doing, for the
	// error of an interrupted preparation.
	phase, phaseWorkflow string
	// mcpAhead is what was discovered of MCP servers before the root lock
	// was taken (see discoverMCPAhead); nil for nothing.
	mcpAhead mcpDiscovered
	// phases and steps profile the build at debug level (see phases.go);
	// nil when not profiling.
	phases *phaseClock
	steps  *stepTimes
}

// enter records the phase the builder is in for w.
func (b *Builder) enter(phase string, w *discovery.Workflow) {
	b.phase, b.phaseWorkflow = phase, w.Manifest.Name
}

// InterruptedError returns the error of a preparation whose context was
// cancelled (SIGINT/SIGTERM), naming the phase it stopped in; nil while ctx
// is live.
func (b *Builder) InterruptedError(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	if b.phase == "" {
		return Interrupted(ctx, PhasePrepare, "")
	}
	ce := Interrupted(ctx, b.phase, "workflow %s", b.phaseWorkflow)
	ce.Details["workflow"] = b.phaseWorkflow
	return ce
}

// Results returns every result in completion order: children before parents.
func (b *Builder) Results() []*Result { return b.order }

// Warnings returns soft problems found while preparing (tracked generated
// files, for example).
func (b *Builder) Warnings() []string { return b.warnings }

func (b *Builder) warn(format string, args ...any) {
	msg := sprintf(format, args...)
	b.warnings = append(b.warnings, msg)
	b.Log.Warn(msg)
}

// Prepare makes w and everything it requires built, reusing fresh builds.
func (b *Builder) Prepare(ctx context.Context, w *discovery.Workflow) *Result {
	if b.results == nil {
		b.results = map[*discovery.Workflow]*Result{}
	}
	if r, ok := b.results[w]; ok {
		return r
	}
	if r, ok := b.batched[w]; ok {
		// Its children were built in the batch too: report them first,
		// as a one-by-one build does.
		for _, name := range w.Sources.References {
			b.Prepare(ctx, b.Root.Workflows[name])
		}
		return b.remember(w, r)
	}
	return b.remember(w, b.prepare(ctx, w))
}

// remember memoizes w's result for the rest of the invocation.
func (b *Builder) remember(w *discovery.Workflow, r *Result) *Result {
	if b.results == nil {
		b.results = map[*discovery.Workflow]*Result{}
	}
	r.workflow = w
	if r.CompiledEntry == "" {
		r.CompiledEntry = freshness.CompiledEntry(w.Dir, w.Manifest.Entrypoint)
	}
	b.results[w] = r
	b.order = append(b.order, r)
	return r
}

func (b *Builder) prepare(ctx context.Context, w *discovery.Workflow) *Result {
	// Step 1: the static import scan happened in discovery; act on it.
	if c := findCycle(b.Root, w); c != nil {
		return failed(w, ReasonCycle, cycleDiagnostic(w.Manifest.Name, c))
	}
	if missing := b.Root.MissingReferences(w); len(missing) > 0 {
		var diags []Diagnostic
		for _, name := range sortedKeys(missing) {
			diags = append(diags, Diagnostic{File: missing[name], Message: sprintf(
				"%s imports the wrapper of workflow %q (.generated/%s.js), but the root %s has no valid workflow named %q; create it or remove the import",
				missing[name], name, name, b.Root.Root.Dir, name)})
		}
		return failed(w, ReasonMissingReference, diags...)
	}
	if other := wrappergen.TypeNameClash(w.Manifest.Name, sortedKeys(b.Root.Workflows)); other != "" {
		return failed(w, ReasonWrapper, message("workflows %q and %q would both generate the wrapper identifiers create%s and %sInput; rename one of them",
			w.Manifest.Name, other, wrappergen.TypeName(other), wrappergen.TypeName(other)))
	}
	if len(w.Sources.OutsideRoot) > 0 {
		return failed(w, ReasonImportOutsideRoot, outsideRootDiagnostics(b.Root.Root.Dir, w.Sources.OutsideRoot)...)
	}
	// Step 4 (children first), before this workflow's own work.
	children := map[string]*Result{}
	for _, name := range w.Sources.References {
		cr := b.Prepare(ctx, b.Root.Workflows[name])
		if cr.Failed() {
			return failed(w, ReasonDependencyFailed, message("required workflow %s failed to build (%s)", name, cr.Reason))
		}
		children[name] = cr
	}
	if b.CheckModels {
		if fail := b.checkDeclaredModels(ctx, w); fail != nil {
			return fail
		}
	}
	// Step 3 comes before the reuse decision: a changed wrapper makes the
	// compiled output stale even though no authored file changed.
	mcp, fail := b.prepareMCP(ctx, w)
	if fail != nil {
		return fail
	}
	if w.Status == freshness.Built && b.sdkCurrent() && !mcp.changed {
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
	if fail := b.validateAgentConfig(ctx, w); fail != nil {
		return fail
	}
	r := &Result{Name: w.Manifest.Name, Dir: w.Dir, Status: StatusUpToDate, Diagnostics: []Diagnostic{}, Key: w.Key}
	if rec := w.Record(); rec != nil {
		r.CompiledEntry = rec.Entry
		if b.wrapperCurrent(w) {
			return r
		}
	}
	def, fail := b.loadDefinition(ctx, w)
	if fail != nil {
		return fail
	}
	r.Definition = def
	if _, fail := b.writeWrapper(w, def); fail != nil {
		return fail
	}
	return r
}

func (b *Builder) build(ctx context.Context, w *discovery.Workflow, children map[string]*Result, mcp mcpStep) *Result {
	entry, out, fail := b.beforeCompile(ctx, w, children, mcp)
	if fail != nil {
		return fail
	}
	// The loader starts once tsc runs: node's start and the SDK's import
	// overlap with the compile. It exits while the record is written.
	var loader *sdk.Loader
	defer func() { loader.Close() }()
	if fail := b.compile(ctx, w, entry, out.dir, func() { loader = b.loaderAhead(ctx) }); fail != nil {
		out.discard()
		return fail
	}
	def, fail := b.loadWithLoader(ctx, w, loader, out.entry(w.Manifest.Entrypoint))
	if fail != nil {
		out.discard()
		return out.asDist(fail)
	}
	return b.finishBuild(w, children, out, def)
}

// beforeCompile runs a build's steps up to compiling (agents section, the
// root, dependencies, child wrappers) and returns the source entrypoint
// and the staging directory to compile into.
func (b *Builder) beforeCompile(ctx context.Context, w *discovery.Workflow, children map[string]*Result, mcp mcpStep) (string, *staging, *Result) {
	b.Log.Info("building", "workflow", w.Manifest.Name, "reason", b.Root.StaleReason(w, b.sdkCurrent()))
	// The previous dist/ and record stay until the new build has fully
	// succeeded (see staging): the record's key is not the current one, so
	// it cannot pass for a build of what is being built now.
	b.enter(PhasePrepare, w)
	if fail := b.validateAgentConfig(ctx, w); fail != nil {
		return "", nil, fail
	}
	if fail := b.ensureRoot(ctx, w); fail != nil {
		return "", nil, fail
	}
	// Step 2: this workflow's dependencies.
	if fail := b.installDependencies(ctx, w); fail != nil {
		return "", nil, fail
	}
	// Step 3 (MCP wrappers) ran in prepare, before the reuse decision.
	// Steps 5 and 6: each child's wrapper is current before we compile. A
	// batch (children nil) compiles against the wrappers on disk and checks
	// them once its children are built (see PrepareBatch).
	for _, name := range w.Sources.References {
		if children == nil {
			break
		}
		if fail := b.ensureChildWrapper(ctx, w, b.Root.Workflows[name], children[name]); fail != nil {
			return "", nil, fail
		}
	}
	// Step 7.
	entry := filepath.Join(w.Dir, filepath.FromSlash(w.Manifest.Entrypoint))
	if _, err := os.Stat(entry); err != nil {
		if b.Explicit && len(mcp.servers) > 0 {
			return "", nil, b.mcpOnly(w, mcp)
		}
		return "", nil, failed(w, ReasonEntrypointNotFound, message("entrypoint %s not found (set entrypoint in %s/workflow.yaml, default workflow.ts)", entry, w.Dir))
	}
	out, err := newStaging(w.Dir)
	if err != nil {
		return "", nil, failed(w, ReasonInternal, message("%v", err))
	}
	return entry, out, nil
}

// finishBuild writes the wrapper and, last, the build record of a workflow
// compiled and loaded from out, flushes out to disk and makes it its
// dist/.
func (b *Builder) finishBuild(w *discovery.Workflow, children map[string]*Result, out *staging, def *sdk.Definition) *Result {
	r := b.recordInto(w, children, def, out.dir)
	if r.Failed() {
		out.discard()
		return r
	}
	return b.flushAndPublish(w, out, r)
}

// flushAndPublish flushes out, written with w's record r, to disk and
// makes it w's dist/.
func (b *Builder) flushAndPublish(w *discovery.Workflow, out *staging, r *Result) *Result {
	flushDone := b.steps.start("flush")
	err := syncTree(out.dir)
	flushDone()
	if err != nil {
		out.discard()
		return failed(w, ReasonInternal, message("%v", err))
	}
	return b.publish(w, out, r)
}

// publish makes out, on disk with w's record r, its dist/.
func (b *Builder) publish(w *discovery.Workflow, out *staging, r *Result) *Result {
	commitDone := b.steps.start("swap dist")
	err := out.commit()
	commitDone()
	if err != nil {
		out.discard()
		return failed(w, ReasonInternal, message("%v", err))
	}
	b.Log.Info("built", "workflow", w.Manifest.Name)
	return r
}

// recordInto writes w's wrapper and its build record into outDir. The
// files in outDir are not flushed: the caller flushes outDir as a whole
// before it becomes dist/. opts are atomicfile's for the wrapper, which is
// published at once (a batch flushes its wrappers together).
func (b *Builder) recordInto(w *discovery.Workflow, children map[string]*Result, def *sdk.Definition, outDir string, opts ...atomicfile.Option) *Result {
	wrapperSHA, fail := b.writeWrapper(w, def, opts...)
	if fail != nil {
		return fail
	}
	// Step 8: the record, computed from the files as they are now (npm may
	// have written a lock file, metadata may have gained "type").
	return b.writeRecord(w, children, def, wrapperSHA, outDir)
}

func (b *Builder) writeRecord(w *discovery.Workflow, children map[string]*Result, def *sdk.Definition, wrapperSHA, outDir string) *Result {
	// A new Scanner: the record must hold the files as they are now, not
	// as discovery read them before the build. The stat cache written
	// beside the record lets later scans skip re-hashing unchanged files.
	scanDone := b.steps.start("scan sources")
	src, stats, err := freshness.NewScanner(b.Root.Root.Dir).SourcesForRecord(w.Dir)
	scanDone()
	if err != nil {
		return failed(w, ReasonInternal, message("%v", err))
	}
	parts := src.Parts()
	for _, name := range src.References {
		cr, ok := children[name]
		if !ok {
			return failed(w, ReasonInternal, message("%s gained a reference to %s during its build; build again", w.Manifest.Name, name))
		}
		parts.References = append(parts.References, freshness.Reference{Name: name, Key: cr.Key})
	}
	key := parts.Key()
	entry := freshness.CompiledEntry(w.Dir, w.Manifest.Entrypoint)
	rec := &freshness.Record{
		FormatVersion: freshness.RecordFormat, Name: w.Manifest.Name, Key: key, Parts: parts,
		Entry: entry, WrapperSHA256: wrapperSHA, OutputSchema: def.Output, BuiltAt: time.Now().UTC(),
	}
	defer b.steps.start("write record")()
	if err := freshness.WriteStatCacheInto(outDir, stats, atomicfile.NoSync()); err != nil {
		return failed(w, ReasonInternal, message("%v", err))
	}
	if err := freshness.WriteRecordInto(outDir, rec, atomicfile.NoSync()); err != nil {
		return failed(w, ReasonInternal, message("%v", err))
	}
	return &Result{Name: w.Manifest.Name, Dir: w.Dir, Status: StatusBuilt, Diagnostics: []Diagnostic{}, Key: key, Definition: def, CompiledEntry: entry}
}

// ensureChildWrapper regenerates child's wrapper unless the one on disk is
// the one the child's current build produced.
func (b *Builder) ensureChildWrapper(ctx context.Context, parent, child *discovery.Workflow, cr *Result) *Result {
	if cr.Definition == nil {
		if b.wrapperCurrent(child) {
			return nil
		}
		def, fail := b.loadDefinition(ctx, child)
		if fail != nil {
			return failed(parent, ReasonDependencyFailed, message("load required workflow %s: %s", child.Manifest.Name, fail.Diagnostics[0].Message))
		}
		cr.Definition = def
	}
	if _, fail := b.writeWrapper(child, cr.Definition); fail != nil {
		return failed(parent, ReasonDependencyFailed, fail.Diagnostics...)
	}
	return nil
}

// writeWrapper writes w's wrapper (opts are atomicfile's) and returns its
// hash.
func (b *Builder) writeWrapper(w *discovery.Workflow, def *sdk.Definition, opts ...atomicfile.Option) (string, *Result) {
	defer b.steps.start("wrapper")()
	wr := wrappergen.Wrapper{
		Name: w.Manifest.Name, Dir: filepath.Base(w.Dir), Entrypoint: w.Manifest.Entrypoint,
		Input: def.Input, Output: def.Output,
	}
	if _, err := wrappergen.WriteFile(b.Root.Root.Dir, wr, opts...); err != nil {
		return "", failed(w, ReasonWrapper, message("generate the wrapper of %s: %v", w.Manifest.Name, err))
	}
	return wrapperSum(b.Root.Root.Dir, w.Manifest.Name), nil
}

// wrapperCurrent reports whether w's wrapper on disk is the one its current
// build generated (the hash in the build record discovery read).
func (b *Builder) wrapperCurrent(w *discovery.Workflow) bool {
	rec := w.Record()
	return rec != nil && rec.WrapperSHA256 != "" && wrapperSum(b.Root.Root.Dir, w.Manifest.Name) == rec.WrapperSHA256
}

// wrapperSum is the SHA-256 of a workflow's wrapper file, "" when missing.
func wrapperSum(root, name string) string {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(wrappergen.FileName(name))))
	if err != nil {
		return ""
	}
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// toolchain returns the toolchain, ensuring it on first use.
func (b *Builder) toolchain(ctx context.Context) (*toolchain.Toolchain, error) {
	if b.tc != nil {
		return b.tc, nil
	}
	tc, err := b.Toolchain(ctx)
	if err != nil {
		return nil, err
	}
	b.tc = tc
	return tc, nil
}

// ensureRoot readies the discovery root once per invocation: toolchain,
// root package metadata, the shared SDK, Git ignore rules.
func (b *Builder) ensureRoot(ctx context.Context, w *discovery.Workflow) *Result {
	if b.rootReady {
		return nil
	}
	defer b.steps.start("sdk check")()
	b.enter(PhaseToolchain, w)
	tc, err := b.toolchain(ctx)
	if err != nil {
		return failed(w, ReasonToolchain, errorDiagnostic(err))
	}
	b.enter(PhaseDependencies, w)
	reinstalled, err := sdk.EnsureInstalled(ctx, tc, b.Root.Root.Dir, b.Log)
	if err != nil {
		reason := ReasonDependencies
		if ce := (*clierr.Error)(nil); errors.As(err, &ce) && ce.Code == buildapi.CodePackageCommonJS {
			reason = ReasonPackageMetadata
		}
		return failed(w, reason, errorDiagnostic(err))
	}
	if reinstalled {
		b.sdkReinstalled = true
		b.invalidateRoot()
	}
	b.sdkKnown, b.sdkOK = true, true
	b.manageGitIgnores(ctx)
	b.rootReady = true
	return nil
}

// sdkCurrent reports whether the root holds this CLI's SDK. Once ensureRoot
// has run it does, for the rest of the invocation.
func (b *Builder) sdkCurrent() bool {
	if !b.sdkKnown {
		b.sdkKnown, b.sdkOK = true, sdk.Current(b.Root.Root.Dir)
	}
	return b.sdkOK
}

// invalidateRoot removes every build record of the root: they were built
// against another SDK version.
// The built workflows still to be prepared in this run are marked stale
// too, so none of them is reused on the strength of a record that is now
// gone; the others keep the reason they already had (never-built, …).
func (b *Builder) invalidateRoot() {
	for _, w := range b.Root.Sorted() {
		if err := freshness.RemoveRecord(w.Dir); err != nil {
			b.warn("remove the build record of %s: %v", w.Manifest.Name, err)
		}
		if _, done := b.results[w]; !done && w.Status == freshness.Built {
			w.Status, w.Reason = freshness.NotBuilt, freshness.ReasonSDKNotCurrent
		}
	}
}

func errorDiagnostic(err error) Diagnostic { return Diagnostic{Message: clierr.As(err).Message} }

// mcpOnly is the manifest-first result: the MCP wrappers are generated so the
// author can write the entrypoint against them, but nothing is built.
func (b *Builder) mcpOnly(w *discovery.Workflow, mcp mcpStep) *Result {
	b.Log.Info("MCP wrappers prepared; no entrypoint yet", "workflow", w.Manifest.Name)
	return &Result{Name: w.Manifest.Name, Dir: w.Dir, Status: StatusMCPPrepared, Diagnostics: []Diagnostic{message(
		"generated the wrappers of MCP servers %s in %s; write %s to build the workflow",
		strings.Join(mcp.servers.Names(), ", "), filepath.Join(w.Dir, "generated", "mcp"), w.Manifest.Entrypoint)}}
}
