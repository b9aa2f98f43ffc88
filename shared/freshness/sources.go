// Package freshness computes a workflow's SHA-256 freshness key and compares
// it with the build record of its last successful build.
//
// The key covers exactly what a build depends on: the workflow's TypeScript
// sources, package.json, package-lock.json and workflow.yaml (without the
// runtime-only sections), each with its relative path so that additions,
// deletions and renames change the key; every other source file the
// compiler reads for it by following relative imports (a shared lib/ of the
// root, files reached through symlinks), with its path in the root; the keys
// of the child workflows it imports through ../.generated/<name>.js; and the
// Stratos version and compiler settings. Discovery, build, describe, schema and run all compute
// it with this package so they can never disagree about "fresh".
package freshness

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/shared/importscan"
	"github.com/stratoscli/stratos/shared/manifest"
)

// FileHash is one authored file's path (slash-separated, relative to the
// workflow directory) and the SHA-256 of its content.
type FileHash struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Sources is what a workflow's authored files contribute to its key.
type Sources struct {
	Files []FileHash `json:"files"`
	// Imports are the source files the workflow's files import, directly
	// or transitively, that its own directory walk does not cover: a shared
	// lib/ of the root, another workflow's file, a file reached through a
	// symlink. Paths are relative to the discovery root, as seen from the
	// importing workflow; hashes are of the content the path leads to.
	Imports []FileHash `json:"imports"`
	// References are the child workflows imported through the root's
	// .generated/ wrappers, sorted and deduplicated.
	References []string `json:"references"`
	// ImportedBy maps each reference to the first file importing it, so
	// a missing reference can be reported where it is written.
	ImportedBy map[string]string `json:"-"`
	// OutsideRoot are the imports that resolve outside the discovery root:
	// tsc cannot compile them into the mirrored dist/ layout, so such a
	// workflow cannot be built.
	OutsideRoot []OutsideImport `json:"-"`
}

// Parts returns the key parts the sources determine with this Stratos's
// toolchain; the references' keys are the caller's to add.
func (s Sources) Parts() Parts {
	return Parts{Toolchain: CurrentToolchain(), Files: s.Files, Imports: s.Imports}
}

// Directories at the top of a workflow that hold generated or installed
// files; node_modules and dot-directories are skipped at any depth.
var generatedTopDirs = map[string]bool{"dist": true, "generated": true, "node_modules": true}

// ScanSources hashes the sources of the workflow in wfDir, whose parent
// directory is its discovery root (workflows live directly in their root).
// Callers scanning several workflows of a root share one Scanner instead.
func ScanSources(wfDir string) (Sources, error) {
	return NewScanner(filepath.Dir(wfDir)).Sources(wfDir)
}

// Sources hashes the authored files of the workflow in wfDir and the
// source files they import, and finds the child workflows it references.
// Files whose stat data match the workflow's stat cache (written by its
// last build) are not read again.
func (s *Scanner) Sources(wfDir string) (Sources, error) {
	return s.scan(wfDir, &scanState{hash: true, cache: ReadStatCache(wfDir)})
}

// SourcesForRecord is Sources for a build about to write the workflow's
// record: it also returns the stat cache to write beside that record.
func (s *Scanner) SourcesForRecord(wfDir string) (Sources, *StatCache, error) {
	rec := newStatRecorder()
	src, err := s.scan(wfDir, &scanState{hash: true, cache: ReadStatCache(wfDir), rec: rec})
	return src, rec.cache, err
}

// SourcesTraced is Sources that also returns what the result depends on
// besides the content of the files it lists: the stat data of every
// directory read and every file used (see Trace).
func (s *Scanner) SourcesTraced(wfDir string) (Sources, *Trace, error) {
	tr := &Trace{}
	src, err := s.scan(wfDir, &scanState{hash: true, cache: ReadStatCache(wfDir), trace: tr})
	return src, tr, err
}

// References lists the sources and finds the referenced child workflows
// like Sources, without hashing the workflow's own files: their hashes are
// empty. Listing uses it for workflows that have no build record, whose key
// nobody needs.
func (s *Scanner) References(wfDir string) (Sources, error) {
	return s.scan(wfDir, &scanState{})
}

// scanState is how one scan reads files: whether it hashes them, the stat
// cache it may take hashes from, and the recorder of a new cache (nil
// unless a build is scanning for its record).
type scanState struct {
	hash  bool
	cache *StatCache
	rec   *statRecorder
	trace *Trace
}

func (s *Scanner) scan(wfDir string, sc *scanState) (Sources, error) {
	src := Sources{ImportedBy: map[string]string{}}
	own, err := sc.walkWorkflow(wfDir, &src)
	if err != nil {
		return Sources{}, err
	}
	if err := s.follow(own, &src, sc); err != nil {
		return Sources{}, err
	}
	sort.Slice(src.Files, func(i, j int) bool { return src.Files[i].Path < src.Files[j].Path })
	sort.Slice(src.Imports, func(i, j int) bool { return src.Imports[i].Path < src.Imports[j].Path })
	sort.Strings(src.References)
	return src, nil
}

// walkWorkflow adds the authored files of the workflow in wfDir to src,
// notes its references, and returns what following its imports needs.
// Directories are visited in name order, as filepath.WalkDir would, but
// read with plain system calls (filestat.Dir), each file stat'ed and read
// relative to its open directory.
func (sc *scanState) walkWorkflow(wfDir string, src *Sources) (*ownFiles, error) {
	own := &ownFiles{dir: filepath.Clean(wfDir), regular: map[string]bool{}, symlinked: map[string]bool{}}
	bp := buffers.Get().(*[]byte)
	defer buffers.Put(bp)
	w := &workflowWalk{sc: sc, src: src, own: own, base: filepath.Base(wfDir), buf: bp}
	// A workflow directory that is a symbolic link is walked where it
	// leads: discovery lists it, the build compiles its files, and so its
	// key covers them.
	fi, err := os.Lstat(wfDir)
	if err != nil {
		return own, fmt.Errorf("read %s: %w", wfDir, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		sc.trace.uncovered()
	}
	return own, w.dir(own.dir, "")
}

// workflowWalk is one walk of a workflow's directory tree.
type workflowWalk struct {
	sc   *scanState
	src  *Sources
	own  *ownFiles
	base string // the workflow directory's name
	buf  *[]byte
}

// dir visits the directory p, whose path relative to the workflow is rel
// ("" for the workflow directory itself). Dot-directories and node_modules
// are skipped at any depth, the generated top directories at the top.
func (w *workflowWalk) dir(p, rel string) error {
	d, err := filestat.OpenDir(p)
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	defer d.Close()
	if err := w.sc.trace.dir(d, rel); err != nil {
		return err
	}
	entries, err := d.Entries()
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	for _, e := range entries {
		ep, erel := p+string(filepath.Separator)+e.Name, e.Name
		if rel != "" {
			erel = rel + "/" + e.Name
		}
		if e.Type == fs.ModeDir {
			if strings.HasPrefix(e.Name, ".") || e.Name == "node_modules" || (rel == "" && generatedTopDirs[e.Name]) {
				continue
			}
			if err := w.dir(ep, erel); err != nil {
				return err
			}
			continue
		}
		if err := w.file(fileRef{path: ep, dir: d, name: e.Name}, erel, rel == "", e.Type); err != nil {
			return err
		}
	}
	return nil
}

// file takes what the key needs from the file p (rel: its path in the
// workflow; top: directly in the workflow directory).
func (w *workflowWalk) file(f fileRef, rel string, top bool, typ fs.FileMode) error {
	var kind fileKind
	switch {
	case isTypeScript(rel):
		kind = kindTypeScript
	case top && (rel == "package.json" || rel == "package-lock.json"):
		kind = kindPlain
	case top && rel == manifest.FileName:
		kind = kindManifest
	default:
		return nil
	}
	e, err := w.sc.content(f, kind, w.buf)
	if err != nil {
		return err
	}
	w.src.Files = append(w.src.Files, FileHash{Path: rel, SHA256: e.SHA256})
	w.sc.trace.file(rel, e.Stat, typ)
	if kind != kindTypeScript {
		return nil
	}
	if typ&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(f.path)
		if err != nil {
			return fmt.Errorf("read %s: %w", f.path, err)
		}
		w.own.symlinked[real] = true
	} else {
		w.own.regular[rel] = true
	}
	for _, spec := range e.Specs {
		if name, ok := importscan.WorkflowReference(w.base+"/"+rel, spec); ok {
			w.src.addReference(name, f.path)
			continue
		}
		w.own.pending = append(w.own.pending, pendingImport{file: f.path, spec: spec})
	}
	return nil
}

// fileKind says what a scan takes from a file.
type fileKind int

const (
	kindPlain      fileKind = iota // the content's hash
	kindTypeScript                 // the content's hash and its relative imports
	kindManifest                   // the hash of workflow.yaml's build-relevant part
)

// fileRef names a file for content: its path, which keys the stat cache
// and names it in errors, and, for a file found by the walk, the open
// directory that holds it, so that stat and open resolve only its name.
type fileRef struct {
	path string
	dir  *filestat.Dir // nil: use path
	name string
}

func (f fileRef) stat() (filestat.Stat, error) {
	if f.dir != nil {
		return f.dir.Stat(f.name)
	}
	return filestat.Path(f.path)
}

func (f fileRef) read(buf *[]byte) ([]byte, filestat.Stat, error) {
	if f.dir != nil {
		return f.dir.ReadFile(f.name, buf)
	}
	return filestat.ReadFile(f.path, buf)
}

// content returns what the scan takes from the file f: from the stat cache
// when its stat data vouch for the cached entry, else read from the file
// (recording it for a new cache either way). A scan that does not hash
// reads TypeScript files only, for their imports.
func (sc *scanState) content(f fileRef, kind fileKind, buf *[]byte) (CachedFile, error) {
	if !sc.hash && kind != kindTypeScript {
		return CachedFile{}, nil
	}
	if sc.cache != nil {
		if st, err := f.stat(); err == nil {
			if e, ok := sc.cache.lookup(f.path, st); ok {
				sc.rec.add(f.path, e)
				return e, nil
			}
		}
	}
	e, err := readEntry(f, kind, buf, sc.hash)
	if err != nil {
		return CachedFile{}, err
	}
	sc.rec.add(f.path, e)
	return e, nil
}

// readEntry reads the file f and computes what kind asks for. The stat
// data are taken before the content is read: a change after that point
// changes them, so the entry can never vouch for content it did not see.
func readEntry(f fileRef, kind fileKind, buf *[]byte, hash bool) (CachedFile, error) {
	data, st, err := f.read(buf)
	if err != nil {
		return CachedFile{}, err
	}
	e := CachedFile{Stat: st}
	switch kind {
	case kindManifest:
		e.SHA256 = sum(buildRelevantManifest(data))
	case kindTypeScript:
		e.SHA256 = maybeSum(data, hash)
		e.Specs = relativeSpecifiers(data)
	default:
		e.SHA256 = sum(data)
	}
	return e, nil
}

// relativeSpecifiers returns the relative import specifiers of TypeScript
// source data, copied out of data.
func relativeSpecifiers(data []byte) []string {
	// Every relative specifier contains "./": most files that import
	// nothing of their own need no scan at all.
	if !bytes.Contains(data, relativeMarker) {
		return nil
	}
	var out []string
	for _, spec := range importscan.Specifiers(string(data)) {
		if importscan.IsRelative(spec) {
			out = append(out, strings.Clone(spec))
		}
	}
	return out
}

func (s *Sources) addReference(name, file string) {
	if _, seen := s.ImportedBy[name]; !seen {
		s.ImportedBy[name] = file
		s.References = append(s.References, name)
	}
}

var relativeMarker = []byte("./")

// buffers recycles read buffers across files and goroutines: listing a large
// root reads thousands of files, and a fresh allocation per file made the
// garbage collector a measurable part of `stratos list`.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

func isTypeScript(rel string) bool {
	switch path.Ext(rel) {
	case ".ts", ".mts", ".cts":
		return true
	}
	return false
}

func maybeSum(data []byte, hash bool) string {
	if !hash {
		return ""
	}
	return sum(data)
}

func sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// buildRelevantManifest returns workflow.yaml without its runtime-only
// sections, in a canonical form (JSON with sorted keys) so that comments and
// formatting do not matter either. Content that does not parse as a mapping
// is hashed as is; validation reports it elsewhere.
func buildRelevantManifest(data []byte) []byte {
	var doc map[string]any
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil || doc == nil {
		return data
	}
	for _, k := range manifest.RuntimeSections {
		delete(doc, k)
	}
	canon, err := json.Marshal(doc)
	if err != nil {
		return data
	}
	return canon
}
