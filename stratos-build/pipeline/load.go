package pipeline

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"runtime"
	"time"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/shared/settings"
)

// definitions is the build's load stage: it loads workflows' compiled
// definitions with node (their modules are evaluated; run is never
// called) and checks the schema conventions, or decides that a build
// record's definition stands (kept.go). Loaders start beside the compile
// whose output they load (startLoaders); a workflow whose build is reused
// loads from its dist/ (fromDist).
type definitions struct {
	rootDir  string
	stderr   io.Writer
	timeout  time.Duration // zero: settings.DefaultDefinitionTimeout
	tools    *toolchainSource
	progress *progress
	steps    *stepTimes
	wrappers *emitter
	// wanted is the workflow whose definition the command prints
	// (describe, schema): it is always loaded.
	wanted *discovery.Workflow
}

// fromDist loads the definition of w from its dist/, for a build that is
// current (describe and schema on a reused build, a child's wrapper to
// restore).
func (d *definitions) fromDist(ctx context.Context, w *discovery.Workflow) (*sdk.Definition, *Result) {
	entry := filepath.Join(w.Dir, filepath.FromSlash(freshness.CompiledEntry(w.Dir, w.Manifest.Entrypoint)))
	d.progress.enter(ctx, PhaseToolchain, w)
	tc, err := d.tools.get(ctx)
	if err != nil {
		return nil, failed(w, ReasonToolchain, errorDiagnostic(err))
	}
	d.progress.enter(ctx, PhaseLoad, w)
	l := sdk.LoadDefinitions(ctx, tc, d.rootDir, []string{entry}, d.stderr, d.limit())[0]
	return d.check(w, l)
}

// startLoaders starts the loader processes that will load up to n
// definitions (see loaderGroups), the modules' output going to stderr. A
// build starts them as soon as its first compiler run has started: node's
// start and the SDK's import overlap with the compile, and nothing delays
// tsc's start. (Starting them before preparing, on the core preparing
// leaves idle, measured no faster: docs/performance.md.) Nil when the
// toolchain is missing (loadAll reports it).
func (d *definitions) startLoaders(ctx context.Context, n int, stderr io.Writer) []*sdk.Loader {
	if n == 0 {
		return nil
	}
	tc, err := d.tools.get(ctx)
	if err != nil {
		return nil
	}
	loaders := make([]*sdk.Loader, len(loaderGroups(n, runtime.GOMAXPROCS(0))))
	for i := range loaders {
		loaders[i] = sdk.StartLoader(ctx, tc, d.rootDir, stderr)
	}
	return loaders
}

// loadAll loads the definitions of the compiled jobs with the loaders
// started beside the compile, one group of jobs per loader, in parallel.
// It hands every job to settled once its compile and load are over (from
// any goroutine; once each), and returns once the last definition is
// reported: the caller closes the loaders (see closeLoaders).
func (d *definitions) loadAll(ctx context.Context, jobs []*job, loaders []*sdk.Loader, settled func(*job)) {
	var pending []*job
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
		d.progress.enter(ctx, PhaseToolchain, pending[0].w)
		_, err := d.tools.get(ctx)
		for _, j := range pending {
			j.fail = failed(j.w, ReasonToolchain, errorDiagnostic(err))
			settled(j)
		}
		return
	}
	d.progress.enter(ctx, PhaseLoad, pending[0].w)
	groups := loaderGroups(len(pending), len(loaders))
	runParallel(len(groups), func(g int) {
		jobs := pending[groups[g][0]:groups[g][1]]
		entries := make([]string, len(jobs))
		for i, j := range jobs {
			entries[i] = j.out.entry(j.w.Manifest.Entrypoint)
		}
		loadDone := d.steps.start("loader")
		loaders[g].LoadEach(entries, d.limit(), func(i int, l sdk.Loaded) {
			j := jobs[i]
			j.def, j.fail = d.check(j.w, l)
			settled(j)
		})
		loadDone()
	})
}

// closeLoaders stops the loaders that loaded nothing and waits for the
// others, which exit while the build finishes its workflows.
func closeLoaders(loaders []*sdk.Loader) {
	for _, l := range loaders {
		l.Close()
	}
}

// check turns one load's result into w's definition, or its failure: a
// timeout, a module that does not load, or schemas that break the
// conventions.
func (d *definitions) check(w *discovery.Workflow, l sdk.Loaded) (*sdk.Definition, *Result) {
	if errors.Is(l.Err, sdk.ErrDefinitionTimeout) {
		diag := message("loading the definition of workflow %s did not finish within %s: its module's top-level code never finished (an endless loop, or an awaited promise that never settles?); the loader was stopped. The limit is build.definitionTimeout in ~/.stratos/settings.json",
			w.Manifest.Name, d.limit())
		diag.Code = ReasonDefinitionTimeout
		return nil, failed(w, ReasonDefinitionTimeout, diag)
	}
	if l.Err != nil {
		return nil, failed(w, ReasonDefinitionInvalid, errorDiagnostic(l.Err))
	}
	if diags := conventionViolations(w, l.Definition); len(diags) > 0 {
		return nil, failed(w, ReasonSchemaConventions, diags...)
	}
	return l.Definition, nil
}

// limit is the time limit of one definition load.
func (d *definitions) limit() time.Duration {
	if d.timeout > 0 {
		return d.timeout
	}
	return settings.DefaultDefinitionTimeout
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
