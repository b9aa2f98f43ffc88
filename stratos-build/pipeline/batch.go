package pipeline

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/importscan"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/stratos-build/wrappergen"
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

// batchPrefix names the directory a shared compiler run writes into.
const batchPrefix = ".stratos-batch-"

// batchJob is one workflow of a batch, prepared up to compiling.
type batchJob struct {
	w       *discovery.Workflow
	entry   string   // the source entrypoint
	out     *staging // where its dist/ is assembled
	closure []string // its compiled sources, relative to the root
	def     *sdk.Definition
	// kept is the build record whose definition stands for the job's (see
	// kept.go): its definition is not loaded.
	kept   *freshness.Record
	fail   *Result
	result *Result // a solo job's, once finished (nil if interrupted)
}

// solo reports whether j requires no other workflow: it is finished as
// soon as its definition loads (see finisher).
func (j *batchJob) solo() bool { return len(j.w.Sources.References) == 0 }

// PrepareBatch builds the stale workflows of ws together (see above) and
// keeps their results for Prepare, which reports them in the order of a
// one-by-one build. Workflows it leaves out, or whose speculative compile
// did not hold, are prepared one by one as before.
func (b *Builder) PrepareBatch(ctx context.Context, ws []*discovery.Workflow) {
	if b.batched == nil {
		b.batched = map[*discovery.Workflow]*Result{}
	}
	phase := b.phaseClock(len(ws))
	cands := b.batchCandidates(ws)
	phase.done("select")
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
			loaders = b.startLoaders(ctx, n, &lockedWriter{w: b.Stderr})
		}
	}
	var jobs []*batchJob
	for _, c := range cands {
		entry, out, fail := b.beforeCompile(ctx, c.w, nil, mcpStep{})
		if fail != nil {
			b.batched[c.w] = fail
			continue
		}
		jobs = append(jobs, &batchJob{w: c.w, entry: entry, out: out, closure: c.closure})
		if ctx.Err() != nil {
			break
		}
	}
	phase.done("prepare")
	if ctx.Err() == nil {
		b.compileJobs(ctx, jobs, true, func() { startLoaders(len(jobs)) })
	}
	startLoaders(len(jobs)) // when no compiler ran
	phase.done("compile")
	b.keepDefinitions(ctx, jobs)
	fin := b.startFinishing(ctx, len(jobs))
	b.loadAll(ctx, jobs, loaders, fin.settled)
	fin.wait()
	b.publishSolo(ctx, jobs)
	phase.done("load and records")
	b.finishBatch(ctx, jobs, cands)
	closeLoaders(loaders)
	phase.done("parents")
	b.steps.log(b.Log)
}

// keepDefinitions marks the compiled jobs that require others and whose
// build record holds their definition (see kept.go): those are not loaded.
// Solo jobs require no other workflow, so nothing but their own sources
// can have made them stale: they are always loaded.
func (b *Builder) keepDefinitions(ctx context.Context, jobs []*batchJob) {
	for _, j := range jobs {
		if !j.solo() && j.fail == nil {
			j.kept = b.keptRecord(ctx, j.w)
		}
	}
}

// closeLoaders stops the loaders that loaded nothing and waits for the
// others, which exit while the batch finishes its workflows.
func closeLoaders(loaders []*sdk.Loader) {
	for _, l := range loaders {
		l.Close()
	}
}

// phaseClock returns the clock of the build's profile: the one the session
// started before discovery, or a new one (nil when not profiling).
func (b *Builder) phaseClock(workflows int) *phaseClock {
	if b.phases == nil && b.Log.IsDebug() {
		b.phases, b.steps = startPhases(b.Log, workflows), newStepTimes()
	}
	return b.phases
}

// finishBatch keeps the results of the finished solo jobs, then finishes
// the jobs that require others, children before parents. A job that
// required a child of the batch is kept only when that child built and its
// new wrapper is the one on disk the job compiled against; otherwise it is
// discarded and Prepare builds it one by one.
func (b *Builder) finishBatch(ctx context.Context, jobs []*batchJob, cands []batchCandidate) {
	wrapperBefore := map[string]string{}
	for _, c := range cands {
		wrapperBefore[c.w.Manifest.Name] = c.wrapperSum
	}
	held := map[string]bool{} // built here, with the wrapper its parents compiled against
	keep := func(j *batchJob, r *Result) {
		if r == nil {
			return
		}
		b.batched[j.w] = r
		name := j.w.Manifest.Name
		held[name] = !r.Failed() && wrapperSum(b.Root.Root.Dir, name) == wrapperBefore[name]
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

// finisher writes the wrappers and records of the batch's solo jobs while
// the definitions of the others still load: as soon as a job's definition
// is checked, its wrapper and record are written, unflushed, with the
// cores node leaves. publishSolo then flushes and publishes them all.
// What it writes is written back to disk meanwhile (writeBehind).
type finisher struct {
	jobs    chan *batchJob
	wg      sync.WaitGroup
	written *writeBehind
}

// startFinishing starts the finisher of a batch of n jobs, on one core
// fewer than there are (at least one): the loader, which the whole batch
// waits for, keeps a core of its own, and one worker writes a job's files
// in less than half the time node takes to load its definition, so it
// keeps up.
func (b *Builder) startFinishing(ctx context.Context, n int) *finisher {
	f := &finisher{jobs: make(chan *batchJob, n), written: startWriteBehind(b.Root.Root.Dir)}
	for range finishers(runtime.GOMAXPROCS(0)) {
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			for j := range f.jobs {
				j.result = b.recordJob(ctx, j)
				if j.result != nil && !j.result.Failed() {
					f.written.nudge() // its staging directory, compiled module included
				}
			}
		}()
	}
	return f
}

// finishers is how many workers write the records beside the loader on
// cores cores.
func finishers(cores int) int { return max(1, cores-1) }

// settled hands over a job whose compile and load are over, when it is
// solo.
func (f *finisher) settled(j *batchJob) {
	if j.solo() {
		f.jobs <- j
	}
}

// wait returns once every job handed over is finished and the writing
// back has stopped.
func (f *finisher) wait() {
	close(f.jobs)
	f.wg.Wait()
	f.written.stop()
}

// publishSolo makes the staging directories of the solo jobs written
// their dist/: everything they wrote is flushed at once (see durable.go),
// then each is renamed, then the renames are flushed. A flush that fails
// fails every job it covered. An interrupted build publishes none of
// them.
func (b *Builder) publishSolo(ctx context.Context, jobs []*batchJob) {
	var staged []*batchJob
	for _, j := range jobs {
		if j.solo() && j.result != nil && !j.result.Failed() {
			staged = append(staged, j)
		}
	}
	if len(staged) == 0 {
		return
	}
	dirs := []string{filepath.Join(b.Root.Root.Dir, ".generated")}
	for _, j := range staged {
		dirs = append(dirs, j.out.dir)
	}
	if err := b.flush(dirs); err != nil {
		for _, j := range staged {
			j.out.discard()
			j.result = failed(j.w, ReasonInternal, message("%v", err))
		}
		return
	}
	if ctx.Err() != nil {
		for _, j := range staged {
			j.out.discard()
			j.result = nil // the caller reports the interruption
		}
		return
	}
	b.swapStaged(staged)
}

// swapStaged renames the flushed staging directories of jobs into their
// dist/ and flushes the renames.
func (b *Builder) swapStaged(jobs []*batchJob) {
	swapped := make([]error, len(jobs))
	runParallel(len(jobs), func(i int) { swapped[i] = jobs[i].out.swap() })
	wfDirs := make([]string, len(jobs))
	for i, j := range jobs {
		wfDirs[i] = j.w.Dir
	}
	err := b.flush(wfDirs)
	for i, j := range jobs {
		if swapped[i] == nil {
			swapped[i] = err
		}
		if swapped[i] != nil {
			j.out.discard()
			j.result = failed(j.w, ReasonInternal, message("%v", swapped[i]))
			continue
		}
		b.Log.Info("built", "workflow", j.w.Manifest.Name)
	}
}

// flush makes what was written to the file systems of dirs durable.
func (b *Builder) flush(dirs []string) error {
	defer b.steps.start("flush")()
	return syncFileSystems(dirs)
}

// recordJob writes a compiled job's wrapper and record, unflushed: its
// result to publish, its failure, or nil when the build was interrupted.
func (b *Builder) recordJob(ctx context.Context, j *batchJob) *Result {
	if ctx.Err() != nil {
		j.out.discard()
		return nil // the caller reports the interruption
	}
	if j.fail != nil {
		j.out.discard()
		return j.out.asDist(j.fail)
	}
	r := b.recordInto(j.w, nil, j.def, j.out.dir, atomicfile.NoSync())
	if r.Failed() {
		j.out.discard()
	}
	return r
}

// finishJob finishes one compiled job: its failure, or its build with its
// wrapper and record. Nil when the build was interrupted.
func (b *Builder) finishJob(ctx context.Context, j *batchJob, children map[string]*Result) *Result {
	if ctx.Err() != nil {
		j.out.discard()
		return nil // the caller reports the interruption
	}
	if j.fail != nil {
		j.out.discard()
		return j.out.asDist(j.fail)
	}
	if j.kept != nil {
		return b.finishKept(j.w, children, j.out, j.kept)
	}
	return b.finishBuild(j.w, children, j.out, j.def)
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
		children[name] = b.batched[b.Root.Workflows[name]]
	}
	return children, true
}

// batchCandidate is a workflow that may share a compiler run.
type batchCandidate struct {
	w       *discovery.Workflow
	closure []string
	// wrapperSum is the hash of the workflow's wrapper before the batch:
	// what the batch's parents of it compile against.
	wrapperSum string
}

// batchCandidates returns, children before parents, the workflows of ws
// that need building, pass the checks that precede a build, and whose
// sources are safe to type-check in a shared program. A workflow that
// requires others is one only when each of them is a candidate with a
// wrapper on disk (from its previous build): the batch compiles against
// that wrapper, and finishBatch keeps the result only if the child's new
// build writes the same one (a leaf edit that keeps the leaf's schemas).
func (b *Builder) batchCandidates(ws []*discovery.Workflow) []batchCandidate {
	sdkCurrent := b.sdkCurrent()
	clashing := clashingTypeNames(b.Root)
	pending := map[*discovery.Workflow]batchCandidate{}
	for _, w := range ws {
		if _, done := b.results[w]; done || b.batched[w] != nil || (w.Status == freshness.Built && sdkCurrent) {
			continue
		}
		if len(w.Sources.OutsideRoot) > 0 || clashing[w.Manifest.Name] || b.failsBeforeBuild(w) {
			continue
		}
		// MCP wrappers and the explicit build's model check are steps of
		// prepare that a batch does not run: such workflows build alone.
		if w.Manifest.Sections["mcp"] != nil || (b.CheckModels && len(declaredOllamaModels(w.Manifest.Sections["agents"])) > 0) {
			continue
		}
		entry := filepath.Join(w.Dir, filepath.FromSlash(w.Manifest.Entrypoint))
		closure, shareable := sourceClosure(b.Root.Root.Dir, entry)
		if !shareable {
			continue
		}
		pending[w] = batchCandidate{w: w, closure: closure, wrapperSum: wrapperSum(b.Root.Root.Dir, w.Manifest.Name)}
	}
	return b.readyOrder(ws, pending)
}

// readyOrder returns the pending candidates whose children are all
// candidates with a wrapper on disk, children before parents, in the order
// of ws otherwise.
func (b *Builder) readyOrder(ws []*discovery.Workflow, pending map[*discovery.Workflow]batchCandidate) []batchCandidate {
	var out []batchCandidate
	placed := map[string]bool{}
	for progress := true; progress; {
		progress = false
		for _, w := range ws {
			c, ok := pending[w]
			if !ok || placed[w.Manifest.Name] || !b.childrenPlaced(w, pending, placed) {
				continue
			}
			out = append(out, c)
			placed[w.Manifest.Name] = true
			progress = true
		}
	}
	return out
}

// childrenPlaced reports whether every child of w is an already placed
// candidate whose wrapper is on disk.
func (b *Builder) childrenPlaced(w *discovery.Workflow, pending map[*discovery.Workflow]batchCandidate, placed map[string]bool) bool {
	for _, name := range w.Sources.References {
		c, ok := pending[b.Root.Workflows[name]]
		if !ok || !placed[name] || c.wrapperSum == "" {
			return false
		}
	}
	return true
}

// failsBeforeBuild reports whether prepare would fail w before building
// it (cycle, missing reference; a wrapper name clash is clashingTypeNames').
func (b *Builder) failsBeforeBuild(w *discovery.Workflow) bool {
	return findCycle(b.Root, w) != nil || len(b.Root.MissingReferences(w)) > 0
}

// clashingTypeNames returns the workflows of root whose wrapper
// identifiers clash with another workflow's (see
// wrappergen.TypeNameClash): those that share their TypeName. One pass
// over the root, where asking TypeNameClash for each workflow compares
// every pair.
func clashingTypeNames(root *discovery.Root) map[string]bool {
	byStem := map[string][]string{}
	for name := range root.Workflows {
		stem := wrappergen.TypeName(name)
		byStem[stem] = append(byStem[stem], name)
	}
	clashing := map[string]bool{}
	for _, names := range byStem {
		if len(names) > 1 {
			for _, name := range names {
				clashing[name] = true
			}
		}
	}
	return clashing
}

// compileJobs compiles jobs together when they are several, else alone.
// When a shared run fails on type errors, the jobs whose closure holds a
// file with an error are compiled alone (for their own, verbatim
// diagnostics) and the others together again, once; after that, alone.
// started is called each time a compiler runs (see runCompiler).
func (b *Builder) compileJobs(ctx context.Context, jobs []*batchJob, retry bool, started func()) {
	if len(jobs) >= 2 {
		ok, errorFiles := b.compileTogether(ctx, jobs, started)
		if ok || ctx.Err() != nil {
			return
		}
		if retry && len(errorFiles) > 0 {
			var suspects, clean []*batchJob
			for _, j := range jobs {
				if j.touches(errorFiles) {
					suspects = append(suspects, j)
				} else {
					clean = append(clean, j)
				}
			}
			if len(clean) > 0 && len(suspects) > 0 {
				b.compileAlone(ctx, suspects, started)
				b.compileJobs(ctx, clean, false, started)
				return
			}
		}
	}
	b.compileAlone(ctx, jobs, started)
}

// compileAlone compiles each job in its own tsc run.
func (b *Builder) compileAlone(ctx context.Context, jobs []*batchJob, started func()) {
	for _, j := range jobs {
		if ctx.Err() != nil {
			return
		}
		j.fail = b.compile(ctx, j.w, j.entry, j.out.dir, started)
	}
}

// touches reports whether j's closure holds one of files (root-relative).
func (j *batchJob) touches(files map[string]bool) bool {
	for _, f := range j.closure {
		if files[f] {
			return true
		}
	}
	return false
}

// compileTogether compiles every job in one tsc run into a scratch
// directory and moves each job's closure into its staging directory. It
// reports false when the run failed, with the root-relative files tsc
// reported errors in.
func (b *Builder) compileTogether(ctx context.Context, jobs []*batchJob, started func()) (bool, map[string]bool) {
	b.enter(PhaseToolchain, jobs[0].w)
	tc, err := b.toolchain(ctx)
	if err != nil {
		return false, nil
	}
	b.enter(PhaseCompile, jobs[0].w)
	root := b.Root.Root.Dir
	removeGlob(filepath.Join(root, batchPrefix+"*")) // left by a killed build
	scratch, err := os.MkdirTemp(root, batchPrefix)
	if err != nil {
		return false, nil
	}
	defer os.RemoveAll(scratch)
	names := make([]string, len(jobs))
	entries := make([]string, len(jobs))
	for i, j := range jobs {
		names[i], entries[i] = j.w.Manifest.Name, j.entry
	}
	args := CompilerArgs(tc, root, scratch, entries)
	b.Log.Info("compiling", "workflows", strings.Join(names, ","))
	cmd := exec.CommandContext(ctx, tc.Tsc, args...)
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	tscDone := b.steps.start("tsc")
	err = runCompiler(cmd, started)
	tscDone()
	if err != nil {
		if ctx.Err() != nil {
			return false, nil
		}
		b.Log.Debug("shared compiler run failed; compiling apart", "error", err)
		files := map[string]bool{}
		for _, d := range parseTscOutput(out.String()) {
			if d.File != "" {
				files[filepath.ToSlash(d.File)] = true
			}
		}
		return false, files
	}
	defer b.steps.start("place emitted")()
	closures := make([][]string, len(jobs))
	for i, j := range jobs {
		closures[i] = j.closure
	}
	files := emittedBy(closures)
	for _, j := range jobs {
		if err := files.place(scratch, j.out.dir, j.closure); err != nil {
			j.fail = failed(j.w, ReasonInternal, message("%v", err))
		}
	}
	return true, nil
}

// startLoaders starts the loader processes that will load up to n
// definitions (see loaderGroups) as soon as the first compiler run has
// started (PrepareBatch), as a one-by-one build does: node's start and the
// SDK's import overlap with the compile, and nothing delays tsc's start.
// (Starting them before preparing, on the core preparing leaves idle,
// measured no faster: docs/performance.md.) Nil when the toolchain is
// missing (loadAll reports it).
func (b *Builder) startLoaders(ctx context.Context, n int, stderr io.Writer) []*sdk.Loader {
	if n == 0 {
		return nil
	}
	tc, err := b.toolchain(ctx)
	if err != nil {
		return nil
	}
	loaders := make([]*sdk.Loader, len(loaderGroups(n, runtime.GOMAXPROCS(0))))
	for i := range loaders {
		loaders[i] = sdk.StartLoader(ctx, tc, b.Root.Root.Dir, stderr)
	}
	return loaders
}

// loadAll loads the definitions of the compiled jobs with the loaders
// started beside the compile, one group of jobs per loader, in parallel.
// It hands every job to settled once its compile and load are over (from
// any goroutine; once each), and returns once the last definition is
// reported: the caller closes the loaders (see closeLoaders).
func (b *Builder) loadAll(ctx context.Context, jobs []*batchJob, loaders []*sdk.Loader, settled func(*batchJob)) {
	var pending []*batchJob
	for _, j := range jobs {
		if j.fail == nil && j.kept == nil {
			pending = append(pending, j)
		} else {
			settled(j)
		}
	}
	if len(pending) == 0 {
		return
	}
	if len(loaders) == 0 {
		b.enter(PhaseToolchain, pending[0].w)
		_, err := b.toolchain(ctx)
		for _, j := range pending {
			j.fail = failed(j.w, ReasonToolchain, errorDiagnostic(err))
			settled(j)
		}
		return
	}
	b.enter(PhaseLoad, pending[0].w)
	groups := loaderGroups(len(pending), len(loaders))
	runParallel(len(groups), func(g int) {
		jobs := pending[groups[g][0]:groups[g][1]]
		entries := make([]string, len(jobs))
		for i, j := range jobs {
			entries[i] = j.out.entry(j.w.Manifest.Entrypoint)
		}
		loadDone := b.steps.start("loader")
		loaders[g].LoadEach(entries, b.definitionTimeout(), func(i int, l sdk.Loaded) {
			j := jobs[i]
			j.def, j.fail = b.checkLoaded(j.w, l)
			settled(j)
		})
		loadDone()
	})
}

// minPerLoader is the fewest definitions worth a loader process of their
// own: below it, a second node start costs more than it saves. A loader's
// start (node and the SDK's and zod's import) costs about 0.25 s of CPU,
// one small definition about 2 ms, and while one loader loads, the
// records of what it loaded are written on the other core. Measured on 2
// busy cores: 20 definitions built with 0.83 s of CPU with one loader, 1.00
// s with two; 200 in 3.0 s (2.15 s of CPU) with one, 3.6 s (2.5 s) with
// two.
const minPerLoader = 250

// loaderGroups splits n definitions into contiguous [from, to) groups, one
// loader process each: as many as there are cores, but none smaller than
// minPerLoader (one group for a few).
func loaderGroups(n, cores int) [][2]int {
	count := max(1, min(cores, n/minPerLoader))
	groups := make([][2]int, 0, count)
	for g := range count {
		groups = append(groups, [2]int{g * n / count, (g + 1) * n / count})
	}
	return groups
}

// runParallel calls f(0..n-1) on up to GOMAXPROCS goroutines.
func runParallel(n int, f func(i int)) { runWide(n, runtime.GOMAXPROCS(0), f) }

// runWide calls f(0..n-1) on up to width goroutines.
func runWide(n, width int, f func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(n, width) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f(i)
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// lockedWriter serializes writes of parallel loaders' output.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// sourceClosure returns the TypeScript sources tsc compiles for entry
// (itself and every file its relative imports reach, transitively), as
// paths relative to root, and whether they may share a compiler program
// with other workflows' sources (see the package note above).
func sourceClosure(root, entry string) ([]string, bool) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, false
	}
	seen := map[string]bool{entry: true}
	queue := []string{entry}
	var out []string
	for len(queue) > 0 {
		file := queue[0]
		queue = queue[1:]
		rel, ok := plainPathIn(root, realRoot, file)
		if !ok {
			return nil, false
		}
		// A source too large to scan is compiled with the others, which
		// is always correct, only slower.
		data, err := boundedread.RegularFile(file, maxIsolationScanBytes)
		if err != nil || !isolatedModule(data) {
			return nil, false
		}
		out = append(out, rel)
		for _, spec := range importscan.Specifiers(string(data)) {
			if !importscan.IsRelative(spec) {
				continue
			}
			target, ok := resolveSource(filepath.Join(filepath.Dir(file), filepath.FromSlash(spec)))
			if !ok {
				return nil, false // tsc reports it; compiled alone
			}
			if !seen[target] {
				seen[target] = true
				queue = append(queue, target)
			}
		}
	}
	return out, true
}

// plainPathIn returns file relative to root when it lies there without any
// symlink on the way (tsc would otherwise place its output by the real
// path).
func plainPathIn(root, realRoot, file string) (string, bool) {
	rel, err := filepath.Rel(root, file)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	real, err := filepath.EvalSymlinks(file)
	if err != nil || real != filepath.Join(realRoot, rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// resolveSource is where tsc finds the source of an import of target.
func resolveSource(target string) (string, bool) {
	for _, c := range importscan.SourceCandidates(filepath.ToSlash(target)) {
		p := filepath.FromSlash(c)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

// maxIsolationScanBytes bounds a source file read to see whether it can be
// compiled alone; a larger one (generated data, say) is compiled with the
// others.
const maxIsolationScanBytes = 16 << 20

// isolatedModule reports whether a source file's declarations stay its
// own: a module (it imports or exports) without global declarations,
// module augmentations or triple-slash directives. Only such files can be
// type-checked in a program shared with other workflows exactly as alone.
func isolatedModule(data []byte) bool {
	for _, leak := range [][]byte{[]byte("declare global"), []byte("declare module"), []byte("/// <reference"), []byte("declare namespace")} {
		if bytes.Contains(data, leak) {
			return false
		}
	}
	return bytes.Contains(data, []byte("import")) || bytes.Contains(data, []byte("export"))
}

func removeGlob(pattern string) {
	old, _ := filepath.Glob(pattern)
	for _, p := range old {
		_ = os.RemoveAll(p)
	}
}
