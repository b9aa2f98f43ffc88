package discovery

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/sdk"
)

// Freshen computes the freshness of the given workflows of root r and of
// every workflow they reference, hashing files in parallel. Workflows already
// freshened are not hashed again.
func (r *Root) Freshen(targets []*Workflow) error { return r.freshen(targets, false) }

// freshen does the work of Freshen. With lazy set (listing), a workflow
// without a build record is only scanned for its references, not hashed:
// its status is "not-built" whatever its key, so the key is computed only
// when a workflow that has a record references it.
func (r *Root) freshen(targets []*Workflow, lazy bool) error {
	inClosure := map[*Workflow]bool{}
	var closure, frontier []*Workflow
	add := func(w *Workflow) {
		if !inClosure[w] {
			inClosure[w] = true
			closure = append(closure, w)
			frontier = append(frontier, w)
		}
	}
	for _, t := range targets {
		add(t)
	}
	// Scan breadth-first: each round hashes the newly reached workflows in
	// parallel, then follows their references.
	for len(frontier) > 0 {
		round := frontier
		frontier = nil
		errs := make([]error, len(round))
		parallel(len(round), func(i int) {
			if w := round[i]; !w.scanned || (!lazy && !w.hashed) {
				errs[i] = w.scan(r.sourceScanner(), lazy)
			}
		})
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		for _, w := range round {
			for _, name := range w.Sources.References {
				if child, ok := r.Workflows[name]; ok {
					add(child)
				}
			}
		}
	}
	if lazy {
		if err := r.hashReferenced(closure); err != nil {
			return err
		}
	}
	state := map[*Workflow]int{} // 0 unvisited, 1 in progress, 2 done
	for _, w := range closure {
		r.computeKey(w, state)
	}
	return nil
}

// scan reads the workflow's sources; lazily (no hashes) when it has no
// build record.
// The build record is read here too, on the same worker, so that comparing
// keys later needs no I/O.
func (w *Workflow) scan(s *freshness.Scanner, lazy bool) error {
	var err error
	w.record, w.recordErr = freshness.ReadRecord(w.Dir)
	if lazy && w.record == nil && w.recordErr == nil {
		w.Sources, err = s.References(w.Dir)
	} else {
		w.Sources, err = s.Sources(w.Dir)
		w.hashed = err == nil
	}
	w.scanned = err == nil
	return err
}

// hashReferenced hashes the unhashed workflows that a hashed one references,
// transitively: their keys are part of the referencing workflow's key.
func (r *Root) hashReferenced(closure []*Workflow) error {
	var need []*Workflow
	seen := map[*Workflow]bool{}
	var visit func(w *Workflow)
	visit = func(w *Workflow) {
		for _, name := range w.Sources.References {
			c, ok := r.Workflows[name]
			if !ok || seen[c] {
				continue
			}
			seen[c] = true
			switch {
			case c.hashed:
			case c.indexed != nil:
				c.hashed = true // the index holds its hashes
			default:
				need = append(need, c)
			}
			visit(c)
		}
	}
	for _, w := range closure {
		if w.hashed {
			visit(w)
		}
	}
	errs := make([]error, len(need))
	parallel(len(need), func(i int) { errs[i] = need[i].scan(r.sourceScanner(), false) })
	return errors.Join(errs...)
}

// FreshenAll freshens every valid workflow of every root for listing.
// Workflows without a build record get no key unless a recorded workflow
// references them. A built workflow of a root whose installed SDK is not
// this Stratos's is not built (sdk-not-current): its next preparation
// installs the SDK, which invalidates every build of the root.
func (c *Catalog) FreshenAll() error {
	for _, r := range c.Roots {
		if err := r.freshen(r.Sorted(), true); err != nil {
			return err
		}
		r.requireCurrentSDK()
	}
	return nil
}

// requireCurrentSDK marks the root's built workflows not built when its
// SDK is not current. A root without built workflows is not checked.
func (r *Root) requireCurrentSDK() {
	var built []*Workflow
	for _, w := range r.Workflows {
		if w.Status == freshness.Built {
			built = append(built, w)
		}
	}
	if len(built) == 0 || sdk.Current(r.Root.Dir) {
		return
	}
	for _, w := range built {
		w.Status, w.Reason = freshness.NotBuilt, freshness.ReasonSDKNotCurrent
	}
}

// ListedStatus returns w's status and reason as listing reports them:
// its own, except that a built workflow of a root whose SDK is not current
// is not built (sdk-not-current). w must be freshened. Resolving reports
// this too, so that `list` and `resolve` never disagree; the workflow's own
// Status stays what its record says, for the build to act on.
func (r *Root) ListedStatus(w *Workflow) (status, reason string) {
	if w.Status == freshness.Built && !sdk.Current(r.Root.Dir) {
		return freshness.NotBuilt, freshness.ReasonSDKNotCurrent
	}
	return w.Status, w.Reason
}

// computeKey fills in a workflow's key and status after its sources are
// scanned, computing referenced workflows first. A reference to a missing
// workflow or into a cycle contributes an empty key and makes the workflow
// not built with the matching reason.
func (r *Root) computeKey(w *Workflow, state map[*Workflow]int) {
	if state[w] == 2 || w.freshened {
		return
	}
	state[w] = 1
	parts := w.Sources.Parts()
	reason := ""
	for _, name := range w.Sources.References {
		child, ok := r.Workflows[name]
		ref := freshness.Reference{Name: name}
		switch {
		case !ok:
			reason = freshness.ReasonMissingReference
		case state[child] == 1 || child == w:
			if reason == "" {
				reason = freshness.ReasonReferenceCycle
			}
		default:
			r.computeKey(child, state)
			ref.Key = child.Key
			if child.Reason == freshness.ReasonReferenceCycle && reason == "" {
				reason = freshness.ReasonReferenceCycle
			}
		}
		parts.References = append(parts.References, ref)
	}
	if len(w.Sources.OutsideRoot) > 0 {
		reason = freshness.ReasonImportOutsideRoot
	}
	if !w.hashed {
		// Listing skipped hashing: no record, so never built whatever the key.
		w.Status, w.Reason = freshness.NotBuilt, reason
		if reason == "" {
			w.Reason = freshness.ReasonNeverBuilt
		}
		w.freshened = true
		state[w] = 2
		return
	}
	w.Parts, w.Key = parts, parts.Key()
	if reason != "" {
		w.Status, w.Reason = freshness.NotBuilt, reason
	} else if w.summary != nil {
		// Listed from the index: its outputs were checked with the index.
		wfDir := freshness.WorkflowDir{Path: w.Dir, Checked: w.outputs}
		w.Status, w.Reason = freshness.CompareSummary(wfDir, *w.summary, parts, w.Key)
	} else {
		w.Status, w.Reason = freshness.CompareRecord(w.Dir, w.record, w.recordErr, parts, w.Key)
	}
	w.freshened = true
	state[w] = 2
}

// sourceScanner returns the root's Scanner, created on first use: one per
// Root, and so per invocation, so a file many workflows import is hashed
// once.
func (r *Root) sourceScanner() *freshness.Scanner {
	r.scannerOnce.Do(func() { r.scanner = freshness.NewScanner(r.Root.Dir) })
	return r.scanner
}

// MissingReferences returns the names w imports that its root does not
// have, with the file importing each.
func (r *Root) MissingReferences(w *Workflow) map[string]string {
	out := map[string]string{}
	for _, name := range w.Sources.References {
		if _, ok := r.Workflows[name]; !ok {
			out[name] = w.Sources.ImportedBy[name]
		}
	}
	return out
}

// parallel runs f(0..n-1) on a bounded number of goroutines. Hashing is CPU
// bound with some I/O, so twice the CPU count keeps every core busy.
func parallel(n int, f func(i int)) {
	workers := min(2*runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// String helps debugging output.
func (w *Workflow) String() string { return fmt.Sprintf("%s (%s)", w.Manifest.Name, w.Dir) }
