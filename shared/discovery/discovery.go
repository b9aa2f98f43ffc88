// Package discovery finds the workflows of the discovery roots, validates
// their manifests and computes their freshness. It never writes anything and
// never runs node, npm or tsc: listing is read-only.
//
// stratos-discover prints what this package finds; the build and run tools
// use the same package to resolve the workflow they were asked for, so that
// every tool agrees on validity and freshness.
package discovery

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/shared/roots"
)

// Workflow is one valid workflow of a root.
type Workflow struct {
	Manifest manifest.Manifest
	Root     roots.Root
	Dir      string

	// Set by Freshen.
	Sources   freshness.Sources
	Parts     freshness.Parts
	Key       string
	Status    string
	Reason    string
	record    *freshness.Record
	recordErr error
	// Set when the workflow was listed from the root's index (List):
	// its entry, the summary that stands for its record (record is then
	// nil) and the checks of its outputs made with the entry's.
	indexed   *indexEntry
	summary   *freshness.Summary
	outputs   *freshness.OutputChecks
	scanned   bool
	hashed    bool
	freshened bool
}

// Record returns the build record read when the workflow was freshened
// (nil when it has none or it could not be read), so callers that act on a
// "built" status need not read it again.
func (w *Workflow) Record() *freshness.Record { return w.record }

// Root is the content of one discovery root.
type Root struct {
	Root      roots.Root
	Workflows map[string]*Workflow // valid workflows by name
	Problems  []manifest.Problem
	// invalidNames maps a name declared by invalid or duplicate workflows to
	// their directories, so a lookup can say "invalid" rather than "not found".
	invalidNames map[string][]string

	scannerOnce sync.Once
	scanner     *freshness.Scanner
}

// Catalog is the content of the selected roots, in listing order.
type Catalog struct {
	Roots []*Root
}

// Workflows returns every valid workflow, sorted by root then name.
func (c *Catalog) Workflows() []*Workflow {
	var out []*Workflow
	for _, r := range c.Roots {
		out = append(out, r.Sorted()...)
	}
	return out
}

// Problems returns every problem, sorted by root then directory then field.
func (c *Catalog) Problems() []manifest.Problem {
	var out []manifest.Problem
	for _, r := range c.Roots {
		out = append(out, r.Problems...)
	}
	return out
}

// Sorted returns the root's valid workflows sorted by name.
func (r *Root) Sorted() []*Workflow {
	out := make([]*Workflow, 0, len(r.Workflows))
	for _, w := range r.Workflows {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Manifest.Name < out[j].Manifest.Name })
	return out
}

// UnreadableRootError means a discovery root exists but cannot be listed.
type UnreadableRootError struct {
	Dir string
	Err error
}

func (e *UnreadableRootError) Error() string {
	return fmt.Sprintf("read discovery root %s: %v", e.Dir, e.Err)
}
func (e *UnreadableRootError) Unwrap() error { return e.Err }

// Load reads the manifests of every workflow directory of the given roots.
// It does not hash anything; call Freshen for the workflows that need it.
func Load(rs []roots.Root) (*Catalog, error) {
	c := &Catalog{}
	for _, r := range rs {
		lr, err := loadRoot(r, nil)
		if err != nil {
			return nil, err
		}
		c.Roots = append(c.Roots, lr)
	}
	return c, nil
}

// IsIgnoredDir reports whether a directory directly under a root can never
// be a workflow: generated wrappers, installed packages, compiled output and
// dot-directories.
func IsIgnoredDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules" || name == "dist"
}

// loadRoot reads the workflow directories of root r. With an index (nil
// for none), a directory whose entry still holds takes its manifest, sources
// and record summary from there (such workflows carry no manifest sections:
// the index is for listing); any other is read.
func loadRoot(r roots.Root, idx *listIndex) (*Root, error) {
	out := &Root{Root: r, Workflows: map[string]*Workflow{}, invalidNames: map[string][]string{}}
	entries, err := os.ReadDir(r.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, &UnreadableRootError{Dir: r.Dir, Err: err}
	}
	// Index entries are checked with stat calls relative to the open root:
	// the kernel then resolves a few path components per call, not all.
	var rootDir *filestat.Dir
	if idx != nil {
		if rootDir, err = filestat.OpenDir(r.Dir); err != nil {
			idx = nil
		} else {
			defer rootDir.Close()
		}
	}
	var cands []candidate
	for _, e := range entries {
		typ := e.Type()
		if IsIgnoredDir(e.Name()) || (!typ.IsDir() && typ&fs.ModeSymlink == 0) {
			continue
		}
		c := candidate{name: e.Name(), dir: filepath.Join(r.Dir, e.Name()), link: !typ.IsDir()}
		if typ.IsDir() {
			c.index = idx
		}
		cands = append(cands, c)
	}
	parallel(len(cands), func(i int) { cands[i].load(rootDir) })

	var dirs []string
	var manifests []manifest.Manifest
	var problems [][]manifest.Problem
	var used []*candidate
	for i, c := range cands {
		if c.workflow {
			dirs, manifests, problems = append(dirs, c.dir), append(manifests, c.manifest), append(problems, c.problems)
			used = append(used, &cands[i])
		}
	}

	byName := map[string][]int{}
	for i := range dirs {
		out.Problems = append(out.Problems, problems[i]...)
		if manifests[i].Name != "" {
			byName[manifests[i].Name] = append(byName[manifests[i].Name], i)
		}
	}
	for name, idx := range byName {
		if len(idx) == 1 && len(problems[idx[0]]) == 0 {
			w := &Workflow{Manifest: manifests[idx[0]], Root: r, Dir: dirs[idx[0]]}
			if c := used[idx[0]]; c.entry != nil {
				c.entry.apply(w)
				w.outputs = c.outputs
			}
			out.Workflows[name] = w
			continue
		}
		if len(idx) > 1 {
			out.Problems = append(out.Problems, duplicateProblems(name, idx, dirs)...)
		}
		for _, i := range idx {
			out.invalidNames[name] = append(out.invalidNames[name], dirs[i])
		}
	}
	sort.SliceStable(out.Problems, func(i, j int) bool {
		a, b := out.Problems[i], out.Problems[j]
		if a.Dir != b.Dir {
			return a.Dir < b.Dir
		}
		return a.Field < b.Field
	})
	return out, nil
}

// candidate is a directory of a root's listing (or a symbolic link to one)
// that may be a workflow directory, with its index entry if it has one.
type candidate struct {
	name, dir string
	link      bool       // a symbolic link, to a directory or not
	index     *listIndex // the root's, for a directory; nil for none

	// Set by load.
	entry *indexEntry // its index entry, when it holds

	workflow bool // it has a manifest
	manifest manifest.Manifest
	problems []manifest.Problem
	outputs  *freshness.OutputChecks // of an entry that holds and has a record
}

// load decides whether the candidate is a workflow directory and reads its
// manifest, from its index entry when that holds.
func (c *candidate) load(root *filestat.Dir) {
	if c.index != nil {
		c.entry = c.index.entry(c.name)
	}
	if c.entry != nil && c.entry.holds(root, c.name) {
		c.workflow, c.manifest = true, c.entry.Manifest.manifest()
		if rec := c.entry.Record; rec != nil {
			wd := freshness.WorkflowDir{Path: c.dir, Root: root, Name: c.name}
			checks := wd.CheckOutputs(rec.Entry)
			c.outputs = &checks
		}
		return
	}
	c.entry = nil
	if c.link {
		if fi, err := os.Stat(c.dir); err != nil || !fi.IsDir() {
			return // a link to something else
		}
	}
	if _, err := os.Lstat(filepath.Join(c.dir, manifest.FileName)); err != nil {
		return // not a workflow directory
	}
	c.workflow = true
	c.manifest, c.problems = manifest.Load(c.dir)
}

func duplicateProblems(name string, idx []int, dirs []string) []manifest.Problem {
	var all []string
	for _, i := range idx {
		all = append(all, dirs[i])
	}
	sort.Strings(all)
	var out []manifest.Problem
	for _, d := range all {
		out = append(out, manifest.Problem{
			Dir: d, Manifest: filepath.Join(d, manifest.FileName), Field: "name", Code: manifest.CodeDuplicateName,
			Message: fmt.Sprintf("workflow name %q is declared by more than one directory of the same root: %s", name, strings.Join(all, ", ")),
		})
	}
	return out
}
