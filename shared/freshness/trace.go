package freshness

import (
	"io/fs"
	"slices"

	"github.com/stratoscli/stratos/shared/filestat"
)

// Trace is what a workflow's Sources depend on besides the content of the
// files they list: the stat data of every directory its walk read (an entry
// added, removed or renamed there changes them), of every file it used,
// and of the directories that resolving its imports of files elsewhere in
// the root looked in or passed through. While all of them are unchanged,
// and were not racy when taken, a new scan would find the same Sources.
// Uncovered is set when the result also depends on something the trace
// does not hold: a symbolic link (its target can change without any stat
// here changing), an import that does not resolve (where a file would be
// created to resolve it is not necessarily a directory the trace holds)
// or that leaves the root.
type Trace struct {
	Uncovered bool
	Dirs      []TracedPath // in walk order; "" is the workflow directory
	Files     []TracedPath // in walk order, as Sources.Files before sorting
	// Imports are the files of Sources.Imports, relative to the root as
	// there; ImportDirs the directories their resolution depends on,
	// relative to the root ("." for the root itself), and the root's
	// entries on the way to them (Lstat set).
	Imports    []TracedPath
	ImportDirs []TracedPath
}

// TracedPath is one path of a trace, slash-separated and relative to the
// workflow directory, with its stat data.
type TracedPath struct {
	Path string
	Stat filestat.Stat
	// Lstat is set when Stat is the path's own (a symbolic link's, not
	// its target's): what matters is that the entry is the same one.
	Lstat bool
}

func (t *Trace) dir(d *filestat.Dir, rel string) error {
	if t == nil {
		return nil
	}
	st, err := d.Self()
	if err != nil {
		return err
	}
	t.Dirs = append(t.Dirs, TracedPath{Path: rel, Stat: st})
	return nil
}

func (t *Trace) file(rel string, st filestat.Stat, typ fs.FileMode) {
	if t == nil {
		return
	}
	if typ&fs.ModeSymlink != 0 {
		t.uncovered()
	}
	t.Files = append(t.Files, TracedPath{Path: rel, Stat: st})
}

func (t *Trace) importFile(rootRel string, st filestat.Stat) {
	if t != nil {
		t.Imports = append(t.Imports, TracedPath{Path: rootRel, Stat: st})
	}
}

func (t *Trace) importDirs(dirs []TracedPath) {
	if t == nil {
		return
	}
	for _, d := range dirs {
		if !slices.Contains(t.ImportDirs, d) {
			t.ImportDirs = append(t.ImportDirs, d)
		}
	}
}

// uncovered notes that the scan's result depends on something the trace
// does not hold.
func (t *Trace) uncovered() {
	if t != nil {
		t.Uncovered = true
	}
}
