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
		lr, err := loadRoot(r)
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

func loadRoot(r roots.Root) (*Root, error) {
	out := &Root{Root: r, Workflows: map[string]*Workflow{}, invalidNames: map[string][]string{}}
	entries, err := os.ReadDir(r.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, &UnreadableRootError{Dir: r.Dir, Err: err}
	}
	var dirs []string
	for _, e := range entries {
		if IsIgnoredDir(e.Name()) {
			continue
		}
		dir := filepath.Join(r.Dir, e.Name())
		if !isDir(dir, e) {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, manifest.FileName)); err != nil {
			continue // not a workflow directory
		}
		dirs = append(dirs, dir)
	}
	manifests := make([]manifest.Manifest, len(dirs))
	problems := make([][]manifest.Problem, len(dirs))
	parallel(len(dirs), func(i int) { manifests[i], problems[i] = manifest.Load(dirs[i]) })

	byName := map[string][]int{}
	for i := range dirs {
		out.Problems = append(out.Problems, problems[i]...)
		if manifests[i].Name != "" {
			byName[manifests[i].Name] = append(byName[manifests[i].Name], i)
		}
	}
	for name, idx := range byName {
		if len(idx) == 1 && len(problems[idx[0]]) == 0 {
			out.Workflows[name] = &Workflow{Manifest: manifests[idx[0]], Root: r, Dir: dirs[idx[0]]}
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

// isDir reports whether the entry dir of a root's listing is a directory,
// following a symbolic link; only links need a stat call.
func isDir(dir string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.IsDir()
	}
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
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
