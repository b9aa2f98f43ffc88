package discovery

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/shared/roots"
)

// WriteIndex writes the listing index (IndexFile) of the discovery root at
// rootDir. Entries of the previous index that still hold are kept; every
// other valid workflow is scanned (with its stat cache) and entered, unless
// something its listing depends on cannot be vouched for by stat data (a
// symbolic link, an import outside its own files, a file changed in the
// same timestamp tick as the write began). The caller holds the root's
// build lock, so two writers never race; a reader sees the old index or
// the new.
func WriteIndex(rootDir string) error {
	r := roots.Root{Dir: rootDir}
	prev := readIndex(r.Dir)
	lr, err := loadRoot(r, prev)
	if err != nil {
		return fmt.Errorf("write the list index: %w", err)
	}
	ws := lr.Sorted()
	entries := make([]*indexEntry, len(ws))
	kept := 0
	for i, w := range ws {
		if w.indexed != nil {
			entries[i] = w.indexed
			kept++
		}
	}
	if prev != nil && kept == len(ws) && kept == len(prev.lines) {
		return nil // every entry still holds and none is missing: as written
	}
	clock, err := readIndexClock(r.Dir)
	if err != nil {
		return err
	}
	if prev != nil && prev.Clock.Dev != clock.Dev {
		clear(entries) // the old clock says nothing about this file system
	}
	parallel(len(ws), func(i int) {
		if entries[i] == nil {
			// A Scanner of its own: one shared with earlier scans would
			// answer from what it resolved and read before this scan's stat
			// data were taken.
			entries[i] = indexWorkflow(freshness.NewScanner(rootDir), ws[i].Dir, clock)
		}
	})
	return writeIndexFile(r.Dir, clock, entries)
}

// readIndexClock reads the file system's clock for a writer of the index
// of the root at rootDir. It is read only when the index changes: reading
// it creates a file, which changes its directory's stat data. It lives in
// a directory of its own for that reason: a workflow that imports a
// generated wrapper depends on the stat data of the wrappers' directory,
// which a clock file there would change after every read, so such a
// workflow could never be vouched for.
func readIndexClock(rootDir string) (filestat.Clock, error) {
	dir := filepath.Join(rootDir, clockDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return filestat.Clock{}, fmt.Errorf("write the list index: %w", err)
	}
	clock, err := filestat.ReadClock(dir)
	if err != nil {
		return filestat.Clock{}, fmt.Errorf("write the list index: %w", err)
	}
	return clock, nil
}

// writeIndexFile writes the index of the root at rootDir: the header with
// clock, then the given entries (nil ones left out) sorted by directory,
// each kept one as the line it was read from.
func writeIndexFile(rootDir string, clock filestat.Clock, entries []*indexEntry) error {
	data, err := encodeIndex(indexHeader{
		Format: indexFormat, Toolchain: freshness.CurrentToolchain(), Root: rootDir, Clock: clock,
	}, entries)
	if err != nil {
		return fmt.Errorf("write the list index: %w", err)
	}
	// A lost index costs one slow listing, never a wrong one: not worth a
	// flush to disk.
	return atomicfile.WriteFile(filepath.Join(rootDir, IndexFile), data, atomicfile.Public, atomicfile.NoSync())
}

// encodeIndex returns the index's file: the header's line, then one line
// per entry, sorted by directory.
func encodeIndex(h indexHeader, entries []*indexEntry) ([]byte, error) {
	var present []*indexEntry
	for _, e := range entries {
		if e != nil {
			present = append(present, e)
		}
	}
	slices.SortFunc(present, func(a, b *indexEntry) int { return strings.Compare(a.Dir, b.Dir) })
	data, err := fastjson.Marshal(h)
	if err != nil {
		return nil, err
	}
	data = append(data, '\n')
	for _, e := range present {
		line, err := e.line()
		if err != nil {
			return nil, err
		}
		data = append(append(data, line...), '\n')
	}
	return data, nil
}

// line is the entry's line in the index: the one it was read from, or
// its encoding.
func (e *indexEntry) line() ([]byte, error) {
	if e.raw != nil {
		return e.raw, nil
	}
	line, err := fastjson.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("entry %s: %w", e.Dir, err)
	}
	e.raw = line
	return line, nil
}

// indexWorkflow scans the workflow in dir and returns its entry, or nil
// when listing it must not rely on the index. Every stat data is taken
// before the content it vouches for is read, and must predate clock.
func indexWorkflow(s *freshness.Scanner, dir string, clock filestat.Clock) *indexEntry {
	manifestStat, err := filestat.Path(filepath.Join(dir, manifest.FileName))
	if err != nil || !clock.Vouches(manifestStat) {
		return nil
	}
	m, problems := manifest.Load(dir)
	if len(problems) > 0 {
		return nil
	}
	e := &indexEntry{Dir: filepath.Base(dir), Manifest: indexedManifest{
		Name: m.Name, ShortDescription: m.ShortDescription, LongDescription: m.LongDescription, Entrypoint: m.Entrypoint,
	}}
	// Where a record would appear, stat'ed before looking for it.
	distStat, distErr := filestat.Path(filepath.Join(dir, "dist"))
	rec, recStat, err := freshness.ReadRecordStat(dir)
	if err != nil {
		return nil // listed as record-unreadable, from the record itself
	}
	src, trace, err := s.SourcesTraced(dir)
	if err != nil || trace.Uncovered || len(src.OutsideRoot) > 0 {
		return nil
	}
	if !e.trace(src, trace, manifestStat, clock) {
		return nil
	}
	switch {
	case rec != nil:
		if !clock.Vouches(recStat) {
			return nil
		}
		e.Record = &indexedRecord{Summary: rec.Summarize(src.Parts()), Stat: statOf(recStat)}
	case distErr == nil:
		if !clock.Vouches(distStat) {
			return nil
		}
		e.Watch = []indexedPath{{Path: "dist", Stat: statOf(distStat)}}
	}
	e.References = src.References
	if len(src.ImportedBy) > 0 {
		e.ImportedBy = src.ImportedBy
	}
	return e
}

// trace fills in the entry's directories and files from a scan's trace;
// false when any of their stat data cannot vouch for what was read, or the
// manifest changed since it was read.
func (e *indexEntry) trace(src freshness.Sources, tr *freshness.Trace, manifestStat filestat.Stat, clock filestat.Clock) bool {
	var ok bool
	if e.Dirs, ok = vouchedPaths(tr.Dirs, clock); !ok {
		return false
	}
	stats := make(map[string]filestat.Stat, len(tr.Files))
	for _, f := range tr.Files {
		stats[f.Path] = f.Stat
	}
	if stats[manifest.FileName] != manifestStat {
		return false
	}
	for _, f := range src.Files {
		st, ok := stats[f.Path]
		if !ok || !clock.Vouches(st) {
			return false
		}
		e.Files = append(e.Files, indexedFile{Path: f.Path, SHA256: f.SHA256, Stat: statOf(st)})
	}
	if e.ImportDirs, ok = vouchedPaths(tr.ImportDirs, clock); !ok {
		return false
	}
	imported := make(map[string]filestat.Stat, len(tr.Imports))
	for _, f := range tr.Imports {
		imported[f.Path] = f.Stat
	}
	for _, f := range src.Imports {
		st, ok := imported[f.Path]
		if !ok || !clock.Vouches(st) {
			return false
		}
		e.Imports = append(e.Imports, indexedFile{Path: f.Path, SHA256: f.SHA256, Stat: statOf(st)})
	}
	return true
}

// vouchedPaths are the traced directories as index paths; false when the
// clock cannot vouch for one of them.
func vouchedPaths(traced []freshness.TracedPath, clock filestat.Clock) ([]indexedPath, bool) {
	var out []indexedPath
	for _, d := range traced {
		if !clock.Vouches(d.Stat) {
			return nil, false
		}
		out = append(out, indexedPath{Path: d.Path, Stat: statOf(d.Stat), Lstat: d.Lstat})
	}
	return out, true
}
