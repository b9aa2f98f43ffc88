package discovery

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/shared/roots"
)

// IsPath reports whether a workflow argument names a directory rather than a
// workflow: it contains a path separator or is "." or "..". Workflow names
// cannot contain either.
func IsPath(arg string) bool {
	return strings.ContainsRune(arg, '/') || strings.ContainsRune(arg, filepath.Separator) || arg == "." || arg == ".."
}

// Resolve finds one workflow by name (project root first, unless sel says
// otherwise) or by path, validates it, and computes its freshness together
// with the workflows it references. The returned Root holds every valid
// workflow of that root, which the build needs to follow references.
func Resolve(cwd, arg string, sel roots.Selection) (*Workflow, *Root, error) {
	if IsPath(arg) {
		return resolvePath(cwd, arg)
	}
	rs, err := roots.Resolve(cwd, sel)
	if err != nil {
		return nil, nil, err
	}
	cat, err := Load(rs)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range cat.Roots {
		if w, ok := r.Workflows[arg]; ok {
			return freshenOne(w, r)
		}
	}
	for _, r := range cat.Roots {
		if ps := problemsNaming(r, arg); len(ps) > 0 {
			return nil, nil, invalid(arg, ps)
		}
	}
	var searched []string
	for _, r := range cat.Roots {
		searched = append(searched, r.Root.Dir)
	}
	e := clierr.Usage(discoverapi.CodeWorkflowNotFound, "workflow %q not found (searched %s); run 'stratos list' to see the workflows", arg, strings.Join(searched, ", "))
	return nil, nil, e.WithDetails(map[string]any{"name": arg, "roots": searched})
}

func resolvePath(cwd, arg string) (*Workflow, *Root, error) {
	dir := arg
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cwd, dir)
	}
	dir = filepath.Clean(dir)
	if filepath.Base(dir) == manifest.FileName {
		dir = filepath.Dir(dir)
	}
	if _, err := os.Stat(filepath.Join(dir, manifest.FileName)); err != nil {
		return nil, nil, clierr.Usage(discoverapi.CodeWorkflowNotFound, "%s is not a workflow directory: it has no %s", dir, manifest.FileName).
			WithDetails(map[string]any{"dir": dir})
	}
	root, ok := roots.ForWorkflowDir(dir)
	if !ok {
		return nil, nil, clierr.Usage(discoverapi.CodeWorkflowNotFound, "%s is not in a discovery root: workflows live directly in a .stratos/workflows/ directory", dir).
			WithDetails(map[string]any{"dir": dir})
	}
	cat, err := Load([]roots.Root{root})
	if err != nil {
		return nil, nil, err
	}
	r := cat.Roots[0]
	for _, w := range r.Workflows {
		if sameDir(w.Dir, dir) {
			return freshenOne(w, r)
		}
	}
	var ps []manifest.Problem
	for _, p := range r.Problems {
		if sameDir(p.Dir, dir) {
			ps = append(ps, p)
		}
	}
	return nil, nil, invalid(dir, ps)
}

func freshenOne(w *Workflow, r *Root) (*Workflow, *Root, error) {
	if err := r.Freshen([]*Workflow{w}); err != nil {
		return nil, nil, clierr.New(discoverapi.CodeReadFailed, "%v", err).Wrap(err)
	}
	return w, r, nil
}

// problemsNaming returns the problems of root r that concern a workflow
// called name: a duplicate of that name, or an invalid manifest in a
// directory of that name.
func problemsNaming(r *Root, name string) []manifest.Problem {
	dirs := map[string]bool{}
	for _, d := range r.invalidNames[name] {
		dirs[d] = true
	}
	for _, p := range r.Problems {
		if filepath.Base(p.Dir) == name {
			dirs[p.Dir] = true
		}
	}
	var out []manifest.Problem
	for _, p := range r.Problems {
		if dirs[p.Dir] {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Dir < out[j].Dir })
	return out
}

func invalid(what string, ps []manifest.Problem) error {
	msgs := make([]string, 0, len(ps))
	for _, p := range ps {
		msgs = append(msgs, p.Message)
	}
	if len(msgs) == 0 {
		msgs = append(msgs, "invalid workflow")
	}
	return clierr.Usage(discoverapi.CodeWorkflowInvalid, "workflow %s is invalid: %s", what, strings.Join(msgs, "; ")).
		WithDetails(map[string]any{"problems": ps})
}

func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
