package pipeline

import (
	"context"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/sdk"
)

// A root-wide build spends most of its time starting compilers: one tsc
// run per workflow costs far more than one run over all their entrypoints.
// PrepareBatch therefore compiles the stale workflows that require no other
// workflow in one tsc run, then gives each workflow exactly the compiled
// files of its own source closure, so its dist/ is what compiling it alone
// writes. Semantics stay per workflow:
//
//   - a workflow whose sources could change how another one type-checks
//     when they share a program (global declarations, module
//     augmentations, triple-slash references, script files) is not batched;
//   - when the shared run reports any error, nothing of it is used and each
//     workflow is compiled on its own, so diagnostics are attributed and
//     verbatim, and the clean workflows still build;
//   - definitions load in one node process (sdk.Loader), or one per core
//     when there are many, each with its own time limit; a definition that
//     fails, exits or hangs fails its own workflow only; a parent stale
//     only through its children's keys keeps the definition its build
//     record holds instead (kept.go).
//
// After the compile, the time goes to loading and to writing: each
// workflow's wrapper and record are written as soon as its definition
// loads (finisher), and the batch is flushed to disk at once before it is
// published (durable.go). STRATOS_LOG_LEVEL=debug prints where a build's
// time went (phases.go).
//
// A batch goes through the stages a one-by-one build goes through (see
// the package note), many workflows at a time: the planner selects them,
// the preparer stages each, the compiler shares its runs among them, the
// definitions load in shared loaders, and the recorder publishes the solo
// ones together.

// PrepareBatch builds the stale workflows of ws together (see above) and
// keeps their results for Prepare, which reports them in the order of a
// one-by-one build. Workflows it leaves out, or whose speculative compile
// did not hold, are prepared one by one as before.
func (b *Builder) PrepareBatch(ctx context.Context, ws []*discovery.Workflow) {
	cands := b.plan.candidates(ws, b.settled, b.setup.sdkCurrent())
	b.phases.done("select")
	if len(cands) < 2 {
		return
	}
	// The loaders start once, when the first compiler run has started (a
	// batch may take several), or after preparing when nothing compiles.
	var loaders []*sdk.Loader
	loadersStarted := false
	startLoaders := func(n int) {
		if !loadersStarted {
			loadersStarted = true
			loaders = b.defs.startLoaders(ctx, n, &lockedWriter{w: b.stderr})
		}
	}
	jobs := b.stageBatch(ctx, cands)
	b.phases.done("prepare")
	if ctx.Err() == nil {
		b.comp.shared(ctx, jobs, func() { startLoaders(len(jobs)) })
	}
	startLoaders(len(jobs)) // when no compiler ran
	b.phases.done("compile")
	b.keepDefinitions(ctx, jobs)
	fin := b.rec.startFinishing(ctx, len(jobs))
	b.defs.loadAll(ctx, jobs, loaders, fin.settled)
	fin.wait()
	b.rec.publishAll(ctx, jobs)
	b.phases.done("load and records")
	b.finishBatch(ctx, jobs, cands)
	closeLoaders(loaders)
	b.phases.done("parents")
	b.steps.log(b.log)
}

// settled reports whether the builder has w's result already, reported
// or batched.
func (b *Builder) settled(w *discovery.Workflow) bool {
	return b.prepared(w) || b.batched[w] != nil
}

// stageBatch prepares each candidate up to compiling; the failures are
// the batch's results.
func (b *Builder) stageBatch(ctx context.Context, cands []batchCandidate) []*job {
	var jobs []*job
	for _, c := range cands {
		j, fail := b.stage(ctx, c.w)
		if fail != nil {
			b.batched[c.w] = fail
			continue
		}
		j.closure = c.closure
		jobs = append(jobs, j)
		if ctx.Err() != nil {
			break
		}
	}
	return jobs
}

// stage prepares w, whose children's wrappers the batch compiles against
// as they are on disk (see finishBatch), up to compiling.
func (b *Builder) stage(ctx context.Context, w *discovery.Workflow) (*job, *Result) {
	if fail := b.prep.setup(ctx, w); fail != nil {
		return nil, fail
	}
	return b.prep.stage(w, mcpStep{})
}

// keepDefinitions marks the compiled jobs that require others and whose
// build record holds their definition (see kept.go): those are not loaded.
// Solo jobs require no other workflow, so nothing but their own sources
// can have made them stale: they are always loaded.
func (b *Builder) keepDefinitions(ctx context.Context, jobs []*job) {
	for _, j := range jobs {
		if !j.solo() && j.fail == nil {
			j.kept = b.defs.kept(ctx, j.w, b.setup.state())
		}
	}
}

// finishBatch keeps the results of the recorded solo jobs, then finishes
// the jobs that require others, children before parents. A job that
// required a child of the batch is kept only when that child built and its
// new wrapper is the one on disk the job compiled against; otherwise it is
// discarded and Prepare builds it one by one.
func (b *Builder) finishBatch(ctx context.Context, jobs []*job, cands []batchCandidate) {
	wrapperBefore := map[string]string{}
	for _, c := range cands {
		wrapperBefore[c.w.Manifest.Name] = c.wrapperSum
	}
	held := map[string]bool{} // built here, with the wrapper its parents compiled against
	keep := func(j *job, r *Result) {
		if r == nil {
			return
		}
		b.batched[j.w] = r
		name := j.w.Manifest.Name
		held[name] = !r.Failed() && wrapperSum(b.root.Root.Dir, name) == wrapperBefore[name]
	}
	for _, j := range jobs {
		if j.solo() {
			keep(j, j.result)
		}
	}
	for _, j := range jobs {
		if j.solo() {
			continue
		}
		children, ok := b.batchChildren(j.w, held)
		if !ok {
			j.out.discard()
			continue
		}
		keep(j, b.finishJob(ctx, j, children))
	}
}

// finishJob finishes one compiled job that requires others: its failure,
// or its build with its wrapper and record. Nil when the build was
// interrupted.
func (b *Builder) finishJob(ctx context.Context, j *job, children map[string]*Result) *Result {
	if ctx.Err() != nil {
		j.out.discard()
		return nil // the caller reports the interruption
	}
	if j.fail != nil {
		return j.failure()
	}
	if j.kept != nil {
		return b.rec.finishKept(j.w, children, j.out, j.kept)
	}
	return b.rec.finish(j.w, children, j.out, j.def)
}

// batchChildren returns the results of w's children built in this batch,
// and false when one of them failed or changed its wrapper: then w's
// compile did not see what a one-by-one build would have.
func (b *Builder) batchChildren(w *discovery.Workflow, held map[string]bool) (map[string]*Result, bool) {
	if len(w.Sources.References) == 0 {
		return nil, true
	}
	children := map[string]*Result{}
	for _, name := range w.Sources.References {
		if !held[name] {
			return nil, false
		}
		children[name] = b.batched[b.root.Workflows[name]]
	}
	return children, true
}
