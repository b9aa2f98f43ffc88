package testscripts

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/roots"
	"github.com/stratoscli/stratos/shared/sdk/sdktest"
)

func TestDiscover(t *testing.T) {
	p := params(t, "discover")
	p.Cmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"writerecord": cmdWriteRecord,
		"snapshot":    cmdSnapshot,
	}
	testscript.Run(t, p)
}

// writerecord <workflow-dir>: writes the build record a successful build
// would write (from the key discovery computes now) and a placeholder
// compiled entry, places this Stratos's SDK in the workflow's root as a
// build installs it and writes the root's listing index, so freshness transitions can be tested without a build.
func cmdWriteRecord(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: writerecord <workflow-dir>")
	}
	dir := ts.MkAbs(args[0])
	w, _, err := discovery.Resolve(dir, dir, roots.Both)
	ts.Check(err)
	entry := freshness.CompiledEntry(w.Dir, w.Manifest.Entrypoint)
	ts.Check(os.MkdirAll(filepath.Dir(filepath.Join(w.Dir, entry)), 0o755))
	ts.Check(os.WriteFile(filepath.Join(w.Dir, entry), []byte("export default {};\n"), 0o644))
	ts.Check(freshness.WriteRecord(w.Dir, &freshness.Record{
		FormatVersion: freshness.RecordFormat, Name: w.Manifest.Name, Key: w.Key, Parts: w.Parts, Entry: entry,
	}))
	ts.Check(sdktest.Place(w.Root.Dir))
	// A build ends by refreshing the root's listing index.
	ts.Check(discovery.WriteIndex(w.Root.Dir))
}

// snapshot <dir> <file>: writes every path under dir with its type, size,
// mode and modification time to file, to prove a command changed nothing.
func cmdSnapshot(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: snapshot <dir> <file>")
	}
	root := ts.MkAbs(args[0])
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		lines = append(lines, fmt.Sprintf("%s %s %d %s", rel, fi.Mode(), fi.Size(), fi.ModTime().UTC().Format("2006-01-02T15:04:05.000000000")))
		return nil
	})
	ts.Check(err)
	sort.Strings(lines)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(strings.Join(lines, "\n")+"\n"), 0o644))
}
