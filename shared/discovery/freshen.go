package discovery

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/stratoscli/stratos/shared/freshness"
)

// Freshen computes the freshness of the given workflows of root r and of
// every workflow they reference, hashing files in parallel. Workflows already
// freshened are not hashed again.
func (r *Root) Freshen(targets []*Workflow) error {
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
			if w := round[i]; !w.scanned {
				w.Sources, errs[i] = freshness.ScanSources(w.Dir)
				w.scanned = errs[i] == nil
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
	state := map[*Workflow]int{} // 0 unvisited, 1 in progress, 2 done
	for _, w := range closure {
		r.computeKey(w, state)
	}
	return nil
}

// FreshenAll freshens every valid workflow of every root.
func (c *Catalog) FreshenAll() error {
	for _, r := range c.Roots {
		if err := r.Freshen(r.Sorted()); err != nil {
			return err
		}
	}
	return nil
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
	parts := freshness.Parts{Toolchain: freshness.CurrentToolchain(), Files: w.Sources.Files}
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
	w.Parts, w.Key = parts, parts.Key()
	if reason != "" {
		w.Status, w.Reason = freshness.NotBuilt, reason
	} else {
		w.Status, w.Reason = freshness.Compare(w.Dir, parts, w.Key)
	}
	w.freshened = true
	state[w] = 2
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
