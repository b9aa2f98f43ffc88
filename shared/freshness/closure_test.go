package freshness

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/filestat"
)

// sharedLibRoot writes a root whose workflow wf imports a shared lib/ that
// imports further files by every form the compiler follows.
func sharedLibRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "workflows")
	write(t, root, "wf/workflow.yaml", "name: wf\n")
	write(t, root, "wf/workflow.ts", `import { settle } from "../lib/fanout.js"; import "./local.js"; export default settle;`)
	write(t, root, "wf/local.ts", "export const local = 1;\n")
	write(t, root, "lib/fanout.ts", "import type { T } from \"./types.js\";\nimport { u } from './util.js';\nexport const settle = async () => (await import(\"./late.js\")).late;\n")
	write(t, root, "lib/types.ts", "export type T = number;\n")
	write(t, root, "lib/util.ts", `export { c } from "../.generated/child.js"; export const u = 1;`)
	write(t, root, "lib/late.ts", "export const late = 1;\n")
	write(t, root, "lib/unused.ts", "export const unused = 1;\n")
	return root
}

func importPaths(src Sources) []string {
	var out []string
	for _, f := range src.Imports {
		out = append(out, f.Path)
	}
	return out
}

func TestScannerFollowsImportsAcrossTheRoot(t *testing.T) {
	root := sharedLibRoot(t)
	src, err := NewScanner(root).Sources(filepath.Join(root, "wf"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"lib/fanout.ts", "lib/late.ts", "lib/types.ts", "lib/util.ts"}
	if got := importPaths(src); !reflect.DeepEqual(got, want) {
		t.Fatalf("imports = %q, want %q", got, want)
	}
	if !reflect.DeepEqual(src.References, []string{"child"}) {
		t.Fatalf("references through the lib = %q", src.References)
	}
	if src.ImportedBy["child"] != filepath.Join(root, "lib", "util.ts") {
		t.Fatalf("child imported by %q", src.ImportedBy["child"])
	}
	before := src.Parts().Key()
	write(t, root, "lib/late.ts", "export const late = 2;\n")
	after, err := NewScanner(root).Sources(filepath.Join(root, "wf"))
	if err != nil {
		t.Fatal(err)
	}
	if after.Parts().Key() == before {
		t.Fatal("editing a transitively imported shared file kept the key")
	}
}

func TestScannerHashesSymlinkTargetsUnderTheirPath(t *testing.T) {
	root := sharedLibRoot(t)
	wf := filepath.Join(root, "wf")
	if err := os.Symlink("../lib", filepath.Join(wf, "shared")); err != nil {
		t.Fatal(err)
	}
	write(t, root, "wf/workflow.ts", `import { settle } from "./shared/fanout.js"; export default settle;`)
	src, err := NewScanner(root).Sources(wf)
	if err != nil {
		t.Fatal(err)
	}
	// Like tsc, the files keep the paths the workflow reaches them by, and
	// their own imports are resolved from there.
	want := []string{"wf/shared/fanout.ts", "wf/shared/late.ts", "wf/shared/types.ts", "wf/shared/util.ts"}
	if got := importPaths(src); !reflect.DeepEqual(got, want) {
		t.Fatalf("imports = %q, want %q", got, want)
	}
	data, err := os.ReadFile(filepath.Join(root, "lib", "fanout.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if got := src.Imports[0].SHA256; got != sum(data) {
		t.Fatalf("symlinked file hashed as %s, want its target's content hash %s", got, sum(data))
	}
}

func TestScannerReportsImportsOutsideTheRoot(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, root, outside string)
	}{
		{"relative path", func(t *testing.T, root, outside string) {
			write(t, root, "wf/workflow.ts", `import { x } from "../../outside/x.js";`)
		}},
		{"symlink", func(t *testing.T, root, outside string) {
			if err := os.Symlink(outside, filepath.Join(root, "lib")); err != nil {
				t.Fatal(err)
			}
			write(t, root, "wf/workflow.ts", `import { x } from "../lib/x.js";`)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "workflows")
			outside := filepath.Join(base, "outside")
			write(t, root, "wf/workflow.yaml", "name: wf\n")
			write(t, outside, "x.ts", "export const x = 1;\n")
			c.setup(t, root, outside)
			src, err := NewScanner(root).Sources(filepath.Join(root, "wf"))
			if err != nil {
				t.Fatal(err)
			}
			if len(src.OutsideRoot) != 1 {
				t.Fatalf("outside-root imports = %+v, want one", src.OutsideRoot)
			}
			got := src.OutsideRoot[0]
			want := OutsideImport{File: filepath.Join(root, "wf", "workflow.ts"), Specifier: got.Specifier, Resolved: filepath.Join(outside, "x.ts")}
			if got != want || got.Specifier == "" {
				t.Fatalf("outside-root import = %+v, want %+v", got, want)
			}
			if len(src.Imports) != 0 {
				t.Fatalf("a file outside the root was hashed as an import: %q", importPaths(src))
			}
		})
	}
}

func TestScannerReadsASharedFileOncePerInvocation(t *testing.T) {
	root := sharedLibRoot(t)
	write(t, root, "other/workflow.yaml", "name: other\n")
	write(t, root, "other/workflow.ts", `import { settle } from "../lib/fanout.js"; export default settle;`)
	s := NewScanner(root)
	first, err := s.Sources(filepath.Join(root, "wf"))
	if err != nil {
		t.Fatal(err)
	}
	// Changed after the first workflow's scan: the same Scanner still
	// answers from what it read, so every workflow of one listing is
	// judged against one content of the lib.
	write(t, root, "lib/fanout.ts", "export const settle = 2;\n")
	second, err := s.Sources(filepath.Join(root, "other"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first.Imports, second.Imports) {
		t.Fatalf("a shared file was read again: %v vs %v", first.Imports, second.Imports)
	}
	fresh, err := NewScanner(root).Sources(filepath.Join(root, "other"))
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(fresh.Imports, second.Imports) {
		t.Fatal("a new Scanner did not see the edit")
	}
}

func TestScannerEndsSymlinkLoops(t *testing.T) {
	root := filepath.Join(t.TempDir(), "workflows")
	write(t, root, "wf/workflow.ts", `import "../lib/a.js";`)
	write(t, root, "lib/a.ts", `import "./self/a.js";`)
	if err := os.Symlink(".", filepath.Join(root, "lib", "self")); err != nil {
		t.Fatal(err)
	}
	src, err := NewScanner(root).Sources(filepath.Join(root, "wf"))
	if err != nil {
		t.Fatal(err)
	}
	if got := importPaths(src); !reflect.DeepEqual(got, []string{"lib/a.ts"}) {
		t.Fatalf("imports = %q, want the one file once", got)
	}
}

// traceChanges returns the paths of the import part of a trace whose stat
// data differ now (or that are gone).
func traceChanges(t *testing.T, root string, tr *Trace) []string {
	t.Helper()
	var changed []string
	for _, p := range append(append([]TracedPath{}, tr.ImportDirs...), tr.Imports...) {
		stat := filestat.Path
		if p.Lstat {
			stat = filestat.Lstat
		}
		if st, err := stat(filepath.Join(root, filepath.FromSlash(p.Path))); err != nil || st != p.Stat {
			changed = append(changed, p.Path)
		}
	}
	return changed
}

// settle waits until the file system's clock has passed every stat data
// of the trace, so that a change now cannot fall in the same timestamp
// tick as what the trace recorded and go unseen.
func settle(t *testing.T, tr *Trace) {
	t.Helper()
	var latest int64
	for _, p := range tr.ImportDirs {
		latest = max(latest, p.Stat.Mtime, p.Stat.Ctime)
	}
	dir := t.TempDir()
	for range 1000 {
		clock, err := filestat.ReadClock(dir)
		if err != nil {
			t.Fatal(err)
		}
		if clock.Now > latest {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the file system's clock never passed the trace's stat data")
}

// A workflow importing a shared lib/ depends on lib/ being the same
// directory with the same entries, not on the root's other entries:
// adding or removing a workflow must leave its trace holding.
func TestSharedImportsSurviveChangesOfTheRootsListing(t *testing.T) {
	root := sharedLibRoot(t)
	_, tr, err := NewScanner(root).SourcesTraced(filepath.Join(root, "wf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range tr.ImportDirs {
		if d.Path == "." {
			t.Fatalf("the root's own stat data are traced: %+v", tr.ImportDirs)
		}
	}
	if !slices.ContainsFunc(tr.ImportDirs, func(p TracedPath) bool { return p.Path == "lib" && p.Lstat }) {
		t.Fatalf("the root's entry lib is not traced by its own stat data: %+v", tr.ImportDirs)
	}
	settle(t, tr)
	write(t, root, "added/workflow.yaml", "name: added\n")
	if err := os.RemoveAll(filepath.Join(root, "wf", "local.ts")); err != nil {
		t.Fatal(err)
	}
	if got := traceChanges(t, root, tr); len(got) != 0 {
		t.Fatalf("a workflow added to the root changed the shared imports' trace: %q", got)
	}
	// What the resolution does depend on is still seen: lib/ replaced by
	// a link to the same directory, and a file taking over an import.
	if err := os.Rename(filepath.Join(root, "lib"), filepath.Join(root, "lib2")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("lib2", filepath.Join(root, "lib")); err != nil {
		t.Fatal(err)
	}
	if got := traceChanges(t, root, tr); !slices.Contains(got, "lib") {
		t.Fatalf("lib/ replaced by a link left its traced entry unchanged: %q", got)
	}
}

// An import that resolves to a file directly in the root looks among the
// root's own entries (a lib.tsx created beside lib.ts takes it over), so
// it must depend on the root's listing.
func TestImportResolvedInTheRootDependsOnIt(t *testing.T) {
	root := filepath.Join(t.TempDir(), "workflows")
	write(t, root, "wf/workflow.yaml", "name: wf\n")
	write(t, root, "wf/workflow.ts", `import { c } from "../common.js"; export default c;`)
	write(t, root, "common.ts", "export const c = 1;\n")
	_, tr, err := NewScanner(root).SourcesTraced(filepath.Join(root, "wf"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(tr.ImportDirs, func(p TracedPath) bool { return p.Path == "." && !p.Lstat }) {
		t.Fatalf("the root's listing is not traced: %+v", tr.ImportDirs)
	}
	settle(t, tr)
	write(t, root, "common.d.ts", "export declare const c: number;\n")
	if got := traceChanges(t, root, tr); !slices.Contains(got, ".") {
		t.Fatalf("a file added to the root left the trace of an import resolved there unchanged: %q", got)
	}
}
