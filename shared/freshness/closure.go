package freshness

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/shared/importscan"
)

// Scanner scans the workflows of one discovery root for one command
// invocation. The build compiles a workflow's entrypoint together with every
// source file it imports, wherever that file lies in the root, so the key
// follows those imports beyond the workflow's own directory. A file that
// several workflows import (a shared lib/ of the root) is read and hashed
// once per Scanner: a Scanner must not outlive the invocation, or it would
// keep reporting a file's content from before an edit.
type Scanner struct {
	root, rootReal string

	mu     sync.Mutex
	shared map[string]*sharedFile // by real path
	// resolved memoizes import resolution by target path (the specifier
	// joined to the importing file's directory): every workflow importing
	// ../lib/x.js, and the lib's own imports, resolve to the same files, and
	// stat plus symlink resolution cost more than the rest of following.
	resolved map[string]*resolution
}

// resolution is where an import target leads: the file tsc reads (as
// seen) and its real path; ok is false when no candidate exists.
type resolution struct {
	once sync.Once
	file string
	ok   bool

	// The real path is resolved only when needed: an import of one of the
	// workflow's own regular files needs none.
	realOnce sync.Once
	real     string
	err      error
}

// realPath returns r's file with symlinks resolved.
func (r *resolution) realPath() (string, error) {
	r.realOnce.Do(func() { r.real, r.err = filepath.EvalSymlinks(r.file) })
	return r.real, r.err
}

// NewScanner returns a Scanner for the discovery root at root.
func NewScanner(root string) *Scanner {
	s := &Scanner{root: filepath.Clean(root), shared: map[string]*sharedFile{}, resolved: map[string]*resolution{}}
	s.rootReal = s.root
	if real, err := filepath.EvalSymlinks(root); err == nil {
		s.rootReal = real
	}
	return s
}

// OutsideImport is a relative import whose file lies outside the discovery
// root (directly or through a symlink).
type OutsideImport struct {
	File      string // the importing file
	Specifier string // as written
	Resolved  string // the file it resolves to, symlinks followed
}

// ownFiles is what the walk of a workflow's directory saw.
type ownFiles struct {
	dir string
	// regular are the walked regular files, relative to dir: an import
	// of one of them needs nothing more.
	regular map[string]bool
	// symlinked are the real paths of walked symlinks to files.
	symlinked map[string]bool
	pending   []pendingImport
}

// holds reports whether real lies in the workflow's directory, even when
// that directory is a symlink into another place: its own files are the
// workflow's to compile wherever they really are.
func (o *ownFiles) holds(real string) bool {
	dir, err := filepath.EvalSymlinks(o.dir)
	return err == nil && within(dir, real)
}

// pendingImport is a relative import still to be followed. Like tsc, it
// is resolved from the importing file's path as seen, even when that path
// goes through a symlink.
type pendingImport struct {
	file string // the importing file, as seen
	spec string
}

// sharedFile is one imported file's content as the Scanner first read it.
type sharedFile struct {
	once  sync.Once
	entry CachedFile // its hash and relative specifiers
	err   error
}

// follow adds to src every file the workflow's sources import, directly or
// transitively, that its directory walk did not hash.
func (s *Scanner) follow(own *ownFiles, src *Sources, sc *scanState) error {
	seen := map[string]bool{}
	queue := own.pending
	for len(queue) > 0 {
		imp := queue[0]
		queue = queue[1:]
		target := filepath.Join(filepath.Dir(imp.file), filepath.FromSlash(imp.spec))
		dirs := s.statResolutionDirs(sc.trace, target)
		res := s.resolve(target)
		if !res.ok {
			// tsc reports an import it cannot resolve. Where a file would
			// be created to resolve it is not necessarily a directory the
			// walk read, so no trace covers it.
			sc.trace.uncovered()
			continue
		}
		file := res.file
		if rel, err := filepath.Rel(own.dir, file); err == nil && own.regular[filepath.ToSlash(rel)] {
			// The walk read the directories this resolution looked in,
			// unless it looked beside the workflow directory (an index
			// file of the directory itself, imported as "../<dir>").
			if !within(own.dir, filepath.Dir(target)) {
				sc.trace.importDirs(dirs)
			}
			continue
		}
		sc.trace.importDirs(dirs)
		real, err := res.realPath()
		if err != nil {
			return fmt.Errorf("resolve %s (imported by %s): %w", file, imp.file, err)
		}
		if !within(s.rootReal, real) && !own.holds(real) {
			src.OutsideRoot = append(src.OutsideRoot, OutsideImport{File: imp.file, Specifier: imp.spec, Resolved: real})
			continue
		}
		if own.symlinked[real] || seen[real] {
			continue
		}
		// One entry per file, under the first path it was reached by (the
		// walk is ordered): that also ends loops of symlinks.
		seen[real] = true
		rootRel := s.seenAs(file, real)
		// A path in the root through a symbolic link can lead elsewhere
		// without any stat the trace holds changing.
		if rootRel != s.relative(real) {
			sc.trace.uncovered()
		}
		if strings.HasPrefix(rootRel, importscan.GeneratedDir+"/") {
			continue // wrappers: the references' keys cover them
		}
		f := s.read(real, sc)
		if f.err != nil {
			return f.err
		}
		sha := f.entry.SHA256
		if !sc.hash {
			sha = ""
		}
		sc.rec.add(real, f.entry)
		sc.trace.importFile(rootRel, f.entry.Stat)
		src.Imports = append(src.Imports, FileHash{Path: rootRel, SHA256: sha})
		for _, spec := range f.entry.Specs {
			if name, ok := importscan.WorkflowReference(rootRel, spec); ok {
				src.addReference(name, file)
				continue
			}
			queue = append(queue, pendingImport{file: file, spec: spec})
		}
	}
	sort.Slice(src.OutsideRoot, func(i, j int) bool {
		a, b := src.OutsideRoot[i], src.OutsideRoot[j]
		return a.File < b.File || (a.File == b.File && a.Specifier < b.Specifier)
	})
	return nil
}

// statResolutionDirs returns, for a traced scan, the stat data of the
// directories that resolving an import of target looks in or passes
// through: target's directory (whose entries decide which candidate
// exists), every directory from there up to the root, and target itself
// when it is a directory (index files). They are taken before the
// resolution, so that a candidate created after it changes them. The root
// itself is among them only when target's directory is the root: below it,
// what the resolution needs of the root is that its entry on the way (a
// shared lib/) is still the same directory, which that entry's own stat
// data (not following a link) say without depending on the root's other
// entries, so adding a workflow to the root leaves such an import's trace
// holding. nil when target's directory is not in the root (the trace then
// covers nothing of it) or the scan is not traced.
func (s *Scanner) statResolutionDirs(t *Trace, target string) []TracedPath {
	if t == nil {
		return nil
	}
	var out []TracedPath
	if st, err := filestat.Path(target); err == nil {
		out = append(out, TracedPath{Path: s.rootRelative(target), Stat: st})
	}
	targetDir := filepath.Dir(target)
	for dir, below := targetDir, ""; ; dir, below = filepath.Dir(dir), dir {
		if !within(s.root, dir) {
			t.uncovered()
			return nil
		}
		var traced TracedPath
		var err error
		if dir == s.root && dir != targetDir {
			traced.Path, traced.Lstat = s.rootRelative(below), true
			traced.Stat, err = filestat.Lstat(below)
		} else {
			traced.Path = s.rootRelative(dir)
			traced.Stat, err = filestat.Path(dir)
		}
		if err != nil {
			t.uncovered()
			return nil
		}
		out = append(out, traced)
		if dir == s.root {
			return out
		}
	}
}

// rootRelative returns p, a path in the root as seen, relative to it and
// slash-separated ("." for the root).
func (s *Scanner) rootRelative(p string) string {
	rel, err := filepath.Rel(s.root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}

// read returns the file at real, reading and hashing it on first use (or
// taking it from the stat cache of the scan that first asks for it: a
// cache entry that matches the file's stat data is as good as a read).
func (s *Scanner) read(real string, sc *scanState) *sharedFile {
	s.mu.Lock()
	f, ok := s.shared[real]
	if !ok {
		f = &sharedFile{}
		s.shared[real] = f
	}
	s.mu.Unlock()
	f.once.Do(func() {
		kind := kindPlain
		if isTypeScript(real) {
			kind = kindTypeScript
		}
		// Always hashed, whatever the first scan asks: a later scan of the
		// same Scanner may need the hash.
		full := &scanState{hash: true, cache: sc.cache}
		bp := buffers.Get().(*[]byte)
		defer buffers.Put(bp)
		f.entry, f.err = full.content(fileRef{path: real}, kind, bp)
	})
	return f
}

// seenAs is the key's path of an imported file: relative to the root as
// the importing workflow sees it (through any symlink), or where it really
// lies when that path leaves the root.
func (s *Scanner) seenAs(file, real string) string {
	if rel, err := filepath.Rel(s.root, file); err == nil && local(rel) {
		return filepath.ToSlash(rel)
	}
	return s.relative(real)
}

// relative returns real relative to the root's real path, slash-separated.
func (s *Scanner) relative(real string) string {
	rel, err := filepath.Rel(s.rootReal, real)
	if err != nil {
		return filepath.ToSlash(real)
	}
	return filepath.ToSlash(rel)
}

// resolve returns where an import of target leads, resolving it on first
// use: the first existing file tsc would read for it, and its real path.
func (s *Scanner) resolve(target string) *resolution {
	s.mu.Lock()
	r, ok := s.resolved[target]
	if !ok {
		r = &resolution{}
		s.resolved[target] = r
	}
	s.mu.Unlock()
	r.once.Do(func() {
		for _, c := range importscan.SourceCandidates(filepath.ToSlash(target)) {
			p := filepath.FromSlash(c)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				r.file, r.ok = p, true
				return
			}
		}
	})
	return r
}

// within reports whether p lies in dir or below it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && local(rel)
}

func local(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
