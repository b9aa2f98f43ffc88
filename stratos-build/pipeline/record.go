package pipeline

import (
	"context"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/sdk"
)

// recorder is the build's record stage: once a workflow's definition is
// known, it has the emitter write the workflow's wrapper, writes its build
// record last into the staging directory, makes the staging directory
// durable (durable.go) and publishes it as the workflow's dist/. A
// workflow built alone is flushed and published by itself (publish); the
// solo workflows of a batch are written as their definitions load
// (finisher) and published together (publishAll). It holds no state:
// several workflows may be recorded at once.
type recorder struct {
	rootDir  string
	log      hclog.Logger
	steps    *stepTimes
	wrappers *emitter
}

// finish writes the wrapper and, last, the build record of w, compiled and
// loaded into out, and publishes out as its dist/.
func (r *recorder) finish(w *discovery.Workflow, children map[string]*Result, out *staging, def *sdk.Definition) *Result {
	res := r.record(w, children, def, out.dir)
	if res.Failed() {
		out.discard()
		return res
	}
	return r.publish(w, out, res)
}

// finishKept is finish for a workflow whose definition is kept from its
// record rec (kept.go): its build record, with rec's output schema and
// wrapper hash, then out as its dist/. The result holds no definition (the
// input schema is not known), so a later step that needs the wrapper finds
// the one on disk current.
func (r *recorder) finishKept(w *discovery.Workflow, children map[string]*Result, out *staging, rec *freshness.Record) *Result {
	r.log.Info("definition kept from the build record", "workflow", w.Manifest.Name)
	res := r.writeRecord(w, children, keptDefinition(rec), rec.WrapperSHA256, out.dir)
	if res.Failed() {
		out.discard()
		return res
	}
	res.Definition = nil
	return r.publish(w, out, res)
}

// record writes w's wrapper and its build record into outDir. The files in
// outDir are not flushed: the caller flushes outDir as a whole before it
// becomes dist/. opts are atomicfile's for the wrapper, which is published
// at once (a batch flushes its wrappers together).
func (r *recorder) record(w *discovery.Workflow, children map[string]*Result, def *sdk.Definition, outDir string, opts ...atomicfile.Option) *Result {
	wrapperSHA, fail := r.wrappers.write(w, def, opts...)
	if fail != nil {
		return fail
	}
	// Step 8: the record, computed from the files as they are now (npm may
	// have written a lock file, metadata may have gained "type").
	return r.writeRecord(w, children, def, wrapperSHA, outDir)
}

func (r *recorder) writeRecord(w *discovery.Workflow, children map[string]*Result, def *sdk.Definition, wrapperSHA, outDir string) *Result {
	// A new Scanner: the record must hold the files as they are now, not
	// as discovery read them before the build. The stat cache written
	// beside the record lets later scans skip re-hashing unchanged files.
	scanDone := r.steps.start("scan sources")
	src, stats, err := freshness.NewScanner(r.rootDir).SourcesForRecord(w.Dir)
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
	defer r.steps.start("write record")()
	if err := freshness.WriteStatCacheInto(outDir, stats, atomicfile.NoSync()); err != nil {
		return failed(w, ReasonInternal, message("%v", err))
	}
	if err := freshness.WriteRecordInto(outDir, rec, atomicfile.NoSync()); err != nil {
		return failed(w, ReasonInternal, message("%v", err))
	}
	return &Result{Name: w.Manifest.Name, Dir: w.Dir, Status: StatusBuilt, Diagnostics: []Diagnostic{}, Key: key, Definition: def, CompiledEntry: entry}
}

// publish flushes out, written with w's record res, to disk file by file
// (syncTree: a few files) and makes it w's dist/.
func (r *recorder) publish(w *discovery.Workflow, out *staging, res *Result) *Result {
	flushDone := r.steps.start("flush")
	err := syncTree(out.dir)
	flushDone()
	if err != nil {
		out.discard()
		return failed(w, ReasonInternal, message("%v", err))
	}
	commitDone := r.steps.start("swap dist")
	err = out.commit()
	commitDone()
	if err != nil {
		out.discard()
		return failed(w, ReasonInternal, message("%v", err))
	}
	r.log.Info("built", "workflow", w.Manifest.Name)
	return res
}

// finisher writes the wrappers and records of a batch's solo jobs while
// the definitions of the others still load: as soon as a job's definition
// is checked, its wrapper and record are written, unflushed, with the
// cores node leaves. publishAll then flushes and publishes them all. What
// it writes is written back to disk meanwhile (writeBehind).
type finisher struct {
	jobs    chan *job
	wg      sync.WaitGroup
	written *writeBehind
}

// startFinishing starts the finisher of a batch of n jobs, on one core
// fewer than there are (at least one): the loader, which the whole batch
// waits for, keeps a core of its own, and one worker writes a job's files
// in less than half the time node takes to load its definition, so it
// keeps up.
func (r *recorder) startFinishing(ctx context.Context, n int) *finisher {
	f := &finisher{jobs: make(chan *job, n), written: startWriteBehind(r.rootDir)}
	for range finishers(runtime.GOMAXPROCS(0)) {
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			for j := range f.jobs {
				j.result = r.recordUnflushed(ctx, j)
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
func (f *finisher) settled(j *job) {
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

// recordUnflushed writes a compiled job's wrapper and record, unflushed:
// its result to publish, its failure, or nil when the build was
// interrupted.
func (r *recorder) recordUnflushed(ctx context.Context, j *job) *Result {
	if ctx.Err() != nil {
		j.out.discard()
		return nil // the caller reports the interruption
	}
	if j.fail != nil {
		return j.failure()
	}
	res := r.record(j.w, nil, j.def, j.out.dir, atomicfile.NoSync())
	if res.Failed() {
		j.out.discard()
	}
	return res
}

// publishAll makes the staging directories of the recorded solo jobs
// their dist/: everything they wrote is flushed at once (see durable.go),
// then each is renamed, then the renames are flushed. A flush that fails
// fails every job it covered. An interrupted build publishes none of
// them.
func (r *recorder) publishAll(ctx context.Context, jobs []*job) {
	var staged []*job
	for _, j := range jobs {
		if j.solo() && j.result != nil && !j.result.Failed() {
			staged = append(staged, j)
		}
	}
	if len(staged) == 0 {
		return
	}
	dirs := []string{filepath.Join(r.rootDir, ".generated")}
	for _, j := range staged {
		dirs = append(dirs, j.out.dir)
	}
	if err := r.flush(dirs); err != nil {
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
	r.swapAll(staged)
}

// swapAll renames the flushed staging directories of jobs into their
// dist/ and flushes the renames.
func (r *recorder) swapAll(jobs []*job) {
	swapped := make([]error, len(jobs))
	runParallel(len(jobs), func(i int) { swapped[i] = jobs[i].out.swap() })
	wfDirs := make([]string, len(jobs))
	for i, j := range jobs {
		wfDirs[i] = j.w.Dir
	}
	err := r.flush(wfDirs)
	for i, j := range jobs {
		if swapped[i] == nil {
			swapped[i] = err
		}
		if swapped[i] != nil {
			j.out.discard()
			j.result = failed(j.w, ReasonInternal, message("%v", swapped[i]))
			continue
		}
		r.log.Info("built", "workflow", j.w.Manifest.Name)
	}
}

// flush makes what was written to the file systems of dirs durable.
func (r *recorder) flush(dirs []string) error {
	defer r.steps.start("flush")()
	return syncFileSystems(dirs)
}
