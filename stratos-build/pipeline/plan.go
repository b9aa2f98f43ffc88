package pipeline

import (
	"maps"
	"path/filepath"
	"slices"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/stratos-build/wrappergen"
)

// planner is the build's plan stage: from what discovery read (manifests,
// the static import scan, build records), and without running anything,
// it refuses the workflows that cannot build (step 1), decides which
// workflows a fresh build is reused for, and selects the workflows a
// batch builds together, children before parents. It writes nothing.
type planner struct {
	root *discovery.Root
	// checkModels: the explicit build checks declared local models, a step
	// a batch does not run.
	checkModels bool
}

// refusal is w's failure when it cannot be built whatever its files say:
// a reference cycle, a reference to a missing workflow, wrapper
// identifiers that clash with another workflow's, an import from outside
// the root. Nil when none holds.
func (p planner) refusal(w *discovery.Workflow) *Result {
	if c := findCycle(p.root, w); c != nil {
		return failed(w, ReasonCycle, cycleDiagnostic(w.Manifest.Name, c))
	}
	if missing := p.root.MissingReferences(w); len(missing) > 0 {
		var diags []Diagnostic
		for _, name := range slices.Sorted(maps.Keys(missing)) {
			diags = append(diags, Diagnostic{File: missing[name], Message: sprintf(
				"%s imports the wrapper of workflow %q (.generated/%s.js), but the root %s has no valid workflow named %q; create it or remove the import",
				missing[name], name, name, p.root.Root.Dir, name)})
		}
		return failed(w, ReasonMissingReference, diags...)
	}
	if other := wrappergen.TypeNameClash(w.Manifest.Name, slices.Sorted(maps.Keys(p.root.Workflows))); other != "" {
		return failed(w, ReasonWrapper, message("workflows %q and %q would both generate the wrapper identifiers create%s and %sInput; rename one of them",
			w.Manifest.Name, other, wrappergen.TypeName(other), wrappergen.TypeName(other)))
	}
	if len(w.Sources.OutsideRoot) > 0 {
		return failed(w, ReasonImportOutsideRoot, outsideRootDiagnostics(p.root.Root.Dir, w.Sources.OutsideRoot)...)
	}
	return nil
}

// reuses reports whether w's current build is reused: it is built, the
// root holds this CLI's SDK, and no MCP wrapper of it changed (a changed
// wrapper makes the compiled output stale though no authored file
// changed).
func (p planner) reuses(w *discovery.Workflow, sdkCurrent bool, mcp mcpStep) bool {
	return w.Status == freshness.Built && sdkCurrent && !mcp.changed
}

// batchCandidate is a workflow that may share a compiler run.
type batchCandidate struct {
	w       *discovery.Workflow
	closure []string
	// wrapperSum is the hash of the workflow's wrapper before the batch:
	// what the batch's parents of it compile against.
	wrapperSum string
}

// candidates returns, children before parents, the workflows of ws that
// need building (settled: those the builder has a result for already),
// pass the checks that precede a build, and whose sources are safe to
// type-check in a shared program (closure.go). A workflow that requires
// others is one only when each of them is a candidate with a wrapper on
// disk (from its previous build): the batch compiles against that
// wrapper, and finishBatch keeps the result only if the child's new build
// writes the same one (a leaf edit that keeps the leaf's schemas).
func (p planner) candidates(ws []*discovery.Workflow, settled func(*discovery.Workflow) bool, sdkCurrent bool) []batchCandidate {
	clashing := clashingTypeNames(p.root)
	pending := map[*discovery.Workflow]batchCandidate{}
	for _, w := range ws {
		if settled(w) || (w.Status == freshness.Built && sdkCurrent) {
			continue
		}
		if len(w.Sources.OutsideRoot) > 0 || clashing[w.Manifest.Name] || p.failsBeforeBuild(w) {
			continue
		}
		// MCP wrappers and the explicit build's model check are steps of
		// prepare that a batch does not run: such workflows build alone.
		if w.Manifest.Sections["mcp"] != nil || (p.checkModels && len(declaredOllamaModels(w.Manifest.Sections["agents"])) > 0) {
			continue
		}
		entry := filepath.Join(w.Dir, filepath.FromSlash(w.Manifest.Entrypoint))
		closure, shareable := sourceClosure(p.root.Root.Dir, entry)
		if !shareable {
			continue
		}
		pending[w] = batchCandidate{w: w, closure: closure, wrapperSum: wrapperSum(p.root.Root.Dir, w.Manifest.Name)}
	}
	return p.readyOrder(ws, pending)
}

// readyOrder returns the pending candidates whose children are all
// candidates with a wrapper on disk, children before parents, in the order
// of ws otherwise.
func (p planner) readyOrder(ws []*discovery.Workflow, pending map[*discovery.Workflow]batchCandidate) []batchCandidate {
	var out []batchCandidate
	placed := map[string]bool{}
	for progress := true; progress; {
		progress = false
		for _, w := range ws {
			c, ok := pending[w]
			if !ok || placed[w.Manifest.Name] || !p.childrenPlaced(w, pending, placed) {
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
func (p planner) childrenPlaced(w *discovery.Workflow, pending map[*discovery.Workflow]batchCandidate, placed map[string]bool) bool {
	for _, name := range w.Sources.References {
		c, ok := pending[p.root.Workflows[name]]
		if !ok || !placed[name] || c.wrapperSum == "" {
			return false
		}
	}
	return true
}

// failsBeforeBuild reports whether w is refused before building it
// (cycle, missing reference; a wrapper name clash is clashingTypeNames').
func (p planner) failsBeforeBuild(w *discovery.Workflow) bool {
	return findCycle(p.root, w) != nil || len(p.root.MissingReferences(w)) > 0
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
