package discovery

import (
	"bytes"
	"fmt"
	"path/filepath"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/importscan"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/shared/roots"
)

// IndexFile is the listing index's path in a discovery root. Builds write
// it (RefreshIndex, WriteIndex) under the root's build lock; `stratos
// list` only reads it.
var IndexFile = filepath.Join(importscan.GeneratedDir, "list-index.json")

// clockDir is where writers of the index read the file system's clock
// (see filestat.ReadClock), apart from the files it indexes.
var clockDir = filepath.Join(importscan.GeneratedDir, ".clock")

// indexFormat changes whenever the index's content changes meaning; an
// index of another format is ignored (listing reads every workflow) and
// the next build writes it anew.
const indexFormat = 2

// listIndex is git's index for listing: per workflow directory of a root,
// what listing needs (the manifest's fields, the sources' hashes and
// references, a summary of the build record) and the stat data of every
// directory and file those came from. An entry whose stat data all hold
// stands for reading the manifest, walking the directory, hashing or
// stat-cache lookups and parsing the record; any other workflow is read as
// if there were no index.
//
// The file is JSON lines: the header, then one line per entry. A reader
// decodes only the entries of the directories it finds, each on its own
// (listing does so in parallel), and a writer copies the line of an entry
// it keeps without encoding it again.
type listIndex struct {
	indexHeader
	// lines are the entries, undecoded, by workflow directory name. They
	// are slices of the file as read, which nothing writes to afterwards:
	// decoded entries' strings point into it instead of copying it.
	lines map[string][]byte
}

// indexHeader is the index's first line.
type indexHeader struct {
	// Format comes first: a reader rejects another format by the line's
	// first bytes, without decoding it.
	Format int `json:"format"`
	// Toolchain is the writer's: hashes, manifests and summaries are what
	// that Stratos computed, so another one ignores the index.
	Toolchain freshness.Toolchain `json:"toolchain"`
	Root      string              `json:"root"`
	// Clock is the file system's time when the writer started: every
	// stat data in the index predate it, so a later change, even within
	// the same timestamp tick as the writer's reads, changes them.
	Clock filestat.Clock `json:"clock"`
}

// headerPrefix is how the header of this format begins.
var headerPrefix = []byte(fmt.Sprintf(`{"format":%d,`, indexFormat))

// entryPrefix is how an entry's line begins: its directory's name comes
// first, so that reading the index finds it without decoding the entry.
var entryPrefix = []byte(`{"dir":"`)

// indexEntry is one workflow directory in the index.
type indexEntry struct {
	Dir      string          `json:"dir"` // its name in the root; first (entryPrefix)
	Manifest indexedManifest `json:"manifest"`
	// Dirs are the directories the walk read, "" (the workflow
	// directory) first.
	Dirs  []indexedPath `json:"dirs"`
	Files []indexedFile `json:"files"` // sorted by path, as Sources.Files
	// Imports are Sources.Imports (paths relative to the root), and
	// ImportDirs the directories resolving them looked in or passed
	// through, relative to the root ("." for the root itself).
	Imports    []indexedFile     `json:"imports,omitempty"`
	ImportDirs []indexedPath     `json:"importDirs,omitempty"`
	References []string          `json:"references,omitempty"`
	ImportedBy map[string]string `json:"importedBy,omitempty"`
	// Record summarizes the build record; nil when there was none, and
	// then Watch holds dist/ (if it existed), where one would appear.
	Record *indexedRecord `json:"record,omitempty"`
	Watch  []indexedPath  `json:"watch,omitempty"`

	// raw is the line the entry was read from (nil for a new one): a
	// writer keeping the entry writes it again as it is.
	raw []byte
}

// indexedManifest is the part of a valid manifest that listing uses.
type indexedManifest struct {
	Name             string `json:"name"`
	ShortDescription string `json:"shortDescription"`
	LongDescription  string `json:"longDescription"`
	Entrypoint       string `json:"entrypoint"`
}

type indexedRecord struct {
	freshness.Summary
	Stat statData `json:"stat"`
}

type indexedPath struct {
	Path string   `json:"path"`
	Stat statData `json:"stat"`
	// Lstat: Stat is the path's own, not following a symbolic link
	// (freshness.TracedPath.Lstat).
	Lstat bool `json:"lstat,omitempty"`
}

type indexedFile struct {
	Path   string   `json:"path"`
	SHA256 string   `json:"sha256"`
	Stat   statData `json:"stat"`
}

// statData is filestat.Stat as a JSON array (dev, inode, size, mtime,
// ctime): a fifth of the index's size with named fields.
type statData [5]int64

func statOf(s filestat.Stat) statData {
	return statData{int64(s.Dev), int64(s.Ino), s.Size, s.Mtime, s.Ctime}
}

// readIndex returns the index of the root at rootDir, or nil when it is
// missing, unreadable, corrupt, of another format or of another Stratos:
// listing then reads every workflow. Entries are decoded by entry.
func readIndex(rootDir string) *listIndex {
	var data []byte
	data, _, err := filestat.ReadFile(filepath.Join(rootDir, IndexFile), &data)
	if err != nil {
		return nil
	}
	head, rest, _ := bytes.Cut(data, []byte{'\n'})
	if !bytes.HasPrefix(head, headerPrefix) {
		return nil
	}
	// Sized from the entries' typical length: counting the lines first
	// would be one more pass over the whole file.
	idx := &listIndex{lines: make(map[string][]byte, len(rest)/1024)}
	if fastjson.Unmarshal(head, &idx.indexHeader) != nil || idx.Format != indexFormat || idx.Root != rootDir ||
		!idx.Toolchain.Equal(freshness.CurrentToolchain()) {
		return nil
	}
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte{'\n'})
		name, ok := entryDir(line)
		if !ok {
			return nil
		}
		idx.lines[name] = line
	}
	return idx
}

// entryDir returns the directory name an entry's line begins with.
func entryDir(line []byte) (string, bool) {
	if !bytes.HasPrefix(line, entryPrefix) {
		return "", false
	}
	name := line[len(entryPrefix):]
	if end := bytes.IndexAny(name, `"\`); end >= 0 && name[end] == '"' {
		return string(name[:end]), true
	}
	// An escaped name: rare enough to decode the line for it.
	var e struct {
		Dir string `json:"dir"`
	}
	if fastjson.Unmarshal(line, &e) != nil {
		return "", false
	}
	return e.Dir, true
}

// entry decodes the entry of the workflow directory name; nil when there
// is none or its line is corrupt. Each call decodes anew, so callers on
// several goroutines share nothing.
func (idx *listIndex) entry(name string) *indexEntry {
	line, ok := idx.lines[name]
	if !ok {
		return nil
	}
	e := &indexEntry{raw: line}
	if rest, err := fastjson.Parse(line, e, fastjson.ZeroCopy); err != nil || len(rest) != 0 || e.Dir != name {
		return nil
	}
	return e
}

// holds reports whether the entry of the workflow directory name still
// stands for it: every stat data it recorded is unchanged. root is the
// open discovery root; paths are stat'ed relative to it.
func (e *indexEntry) holds(root *filestat.Dir, name string) bool {
	same := func(rel string, want statData) bool {
		p := name
		if rel != "" {
			p += "/" + rel
		}
		st, err := root.Stat(p)
		return err == nil && statOf(st) == want
	}
	for _, d := range e.Dirs {
		if !same(d.Path, d.Stat) {
			return false
		}
	}
	for _, f := range e.Files {
		if !same(f.Path, f.Stat) {
			return false
		}
	}
	for _, w := range e.Watch {
		if !same(w.Path, w.Stat) {
			return false
		}
	}
	inRoot := func(rel string, want statData, lstat bool) bool {
		stat := root.Stat
		if lstat {
			stat = root.Lstat
		}
		st, err := stat(rel)
		return err == nil && statOf(st) == want
	}
	for _, d := range e.ImportDirs {
		if !inRoot(d.Path, d.Stat, d.Lstat) {
			return false
		}
	}
	for _, f := range e.Imports {
		if !inRoot(f.Path, f.Stat, false) {
			return false
		}
	}
	return e.Record == nil || same(freshness.RecordFile, e.Record.Stat)
}

// apply fills in w what a scan and a record read would have: its sources
// and the summary of its record.
func (e *indexEntry) apply(w *Workflow) {
	src := freshness.Sources{ImportedBy: map[string]string{}, References: e.References}
	for name, file := range e.ImportedBy {
		src.ImportedBy[name] = file
	}
	src.Files = make([]freshness.FileHash, len(e.Files))
	for i, f := range e.Files {
		src.Files[i] = freshness.FileHash{Path: f.Path, SHA256: f.SHA256}
	}
	for _, f := range e.Imports {
		src.Imports = append(src.Imports, freshness.FileHash{Path: f.Path, SHA256: f.SHA256})
	}
	w.Sources = src
	if e.Record != nil {
		s := e.Record.Summary
		w.summary = &s
	}
	// Like a listing's scan, a workflow without a record counts as not
	// hashed, so that it gets no key unless a recorded workflow references
	// it (hashReferenced then takes its hashes from the entry).
	w.scanned, w.hashed, w.indexed = true, e.Record != nil, e
}

// List loads the given roots and freshens every valid workflow for
// listing, as Load and FreshenAll do, except that a workflow whose entry
// in its root's index still holds is taken from there.
func List(rs []roots.Root) (*Catalog, error) {
	c := &Catalog{}
	for _, r := range rs {
		lr, err := loadRoot(r, readIndex(r.Dir))
		if err != nil {
			return nil, err
		}
		c.Roots = append(c.Roots, lr)
	}
	return c, c.FreshenAll()
}

func (m indexedManifest) manifest() manifest.Manifest {
	return manifest.Manifest{Name: m.Name, ShortDescription: m.ShortDescription, LongDescription: m.LongDescription, Entrypoint: m.Entrypoint}
}
