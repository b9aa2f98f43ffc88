package discovery

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/roots"
	"github.com/stratoscli/stratos/shared/sdk/sdktest"
)

// indexFixture is a root of five workflows (one a child the parent
// imports through its wrapper, one never built, one importing files of the
// root's shared lib/, one with an import that resolves nowhere, which the
// index cannot vouch for) whose built ones are recorded as a build records
// them, and the root's index written as a build writes it.
func indexFixture(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), ".stratos", "workflows")
	for _, name := range []string{"child", "parent", "fresh", "shared", "dangling"} {
		writeFile(t, root, name+"/workflow.yaml", fmt.Sprintf("name: %s\nshortDescription: the %s\nlongDescription: l\n", name, name))
		writeFile(t, root, name+"/package.json", `{"type":"module"}`)
		writeFile(t, root, name+"/lib/util.ts", "export const u = 1;\n")
	}
	writeFile(t, root, "child/workflow.ts", `import "./lib/util.js";`)
	writeFile(t, root, "parent/workflow.ts", `import "./lib/util.js"; import "../.generated/child.js";`)
	writeFile(t, root, "fresh/workflow.ts", `import "./lib/util.js";`)
	writeFile(t, root, "shared/workflow.ts", `import "../lib/common.js"; import "../lib/other";`)
	writeFile(t, root, "lib/common.ts", "export const c = 1;\n")
	writeFile(t, root, "lib/other/index.ts", "export const o = 1;\n")
	writeFile(t, root, "dangling/workflow.ts", `import "./missing.js";`)
	if err := sdktest.Place(root); err != nil {
		t.Fatal(err)
	}
	markBuilt(t, root, "child", "parent", "shared", "dangling")
	writeIndexSettled(t, root)
	return root
}

// markBuilt writes the records (and compiled entries) of the named
// workflows from the keys discovery computes now.
func markBuilt(t *testing.T, root string, names ...string) {
	t.Helper()
	cat, err := Load([]roots.Root{{Kind: roots.Project, Dir: root}})
	if err != nil {
		t.Fatal(err)
	}
	r := cat.Roots[0]
	if err := r.Freshen(r.Sorted()); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		w := r.Workflows[name]
		entry := freshness.CompiledEntry(w.Dir, w.Manifest.Entrypoint)
		writeFile(t, w.Dir, entry, "export default {};\n")
		rec := &freshness.Record{FormatVersion: freshness.RecordFormat, Name: name, Key: w.Key, Parts: w.Parts, Entry: entry}
		if err := freshness.WriteRecord(w.Dir, rec); err != nil {
			t.Fatal(err)
		}
	}
}

// writeIndexSettled writes the root's index again until the four
// workflows the index can vouch for are in it: files changed in the same
// timestamp tick as the write began are left out (racily clean).
func writeIndexSettled(t *testing.T, root string) *listIndex {
	t.Helper()
	for range 300 {
		if err := WriteIndex(root); err != nil {
			t.Fatal(err)
		}
		idx := readIndex(root)
		if idx == nil {
			t.Fatal("the index just written does not read back")
		}
		if len(idx.lines) == 4 {
			return idx
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the index never held the four workflows it can vouch for")
	return nil
}

func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// listed is what `stratos list --json` prints of a catalog, and the keys.
type listed struct {
	Name, Short, Dir, Status, Reason, Key string
}

func snapshot(t *testing.T, c *Catalog) string {
	t.Helper()
	var out []listed
	for _, w := range c.Workflows() {
		out = append(out, listed{w.Manifest.Name, w.Manifest.ShortDescription, w.Dir, w.Status, w.Reason, w.Key})
	}
	data, err := json.MarshalIndent(map[string]any{"workflows": out, "problems": c.Problems()}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// compareWithoutIndex lists root with its index and without, requires the
// same result, and returns the catalog listed with the index.
func compareWithoutIndex(t *testing.T, root string) *Catalog {
	t.Helper()
	rs := []roots.Root{{Kind: roots.Project, Dir: root}}
	withIndex, err := List(rs)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := Load(rs)
	if err == nil {
		err = slow.FreshenAll()
	}
	if err != nil {
		t.Fatal(err)
	}
	if got, want := snapshot(t, withIndex), snapshot(t, slow); got != want {
		t.Fatalf("listed with the index:\n%s\nwithout:\n%s", got, want)
	}
	return withIndex
}

func indexedNames(c *Catalog) []string {
	var out []string
	for _, w := range c.Workflows() {
		if w.indexed != nil {
			out = append(out, w.Manifest.Name)
		}
	}
	return out
}

func statusOf(c *Catalog, name string) string {
	for _, w := range c.Workflows() {
		if w.Manifest.Name == name {
			return w.Status + " " + w.Reason
		}
	}
	return "absent"
}

func TestIndexListsWhatAFullReadLists(t *testing.T) {
	root := indexFixture(t)
	c := compareWithoutIndex(t, root)
	if got := indexedNames(c); !reflect.DeepEqual(got, []string{"child", "fresh", "parent", "shared"}) {
		t.Errorf("taken from the index: %v; want child, fresh, parent, shared (dangling imports nothing that exists)", got)
	}
	for name, want := range map[string]string{"child": "built ", "parent": "built ", "fresh": "not-built never-built", "shared": "built ", "dangling": "built "} {
		if got := statusOf(c, name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// Each change must be seen through the index exactly as a full read sees
// it: the workflows it touches fall back, the others stay indexed.
func TestIndexFallsBackWhenItsStatDataDoNotHold(t *testing.T) {
	cases := []struct {
		name   string
		change func(t *testing.T, root string)
		want   map[string]string // statuses that must result
	}{
		{"an edit keeping size and time", func(t *testing.T, root string) {
			p := filepath.Join(root, "child/lib/util.ts")
			fi, _ := os.Stat(p)
			writeFile(t, root, "child/lib/util.ts", "export const u = 2;\n")
			os.Chtimes(p, fi.ModTime(), fi.ModTime())
		}, map[string]string{"child": "not-built sources-changed", "parent": "not-built reference-changed"}},
		{"a touch without change", func(t *testing.T, root string) {
			now := time.Now()
			os.Chtimes(filepath.Join(root, "parent/workflow.ts"), now, now)
		}, map[string]string{"parent": "built "}},
		{"an added file", func(t *testing.T, root string) {
			writeFile(t, root, "child/lib/more.ts", "export const m = 1;\n")
		}, map[string]string{"child": "not-built sources-changed"}},
		{"a removed file", func(t *testing.T, root string) {
			os.Remove(filepath.Join(root, "parent/lib/util.ts"))
		}, map[string]string{"parent": "not-built sources-changed"}},
		{"a renamed file", func(t *testing.T, root string) {
			os.Rename(filepath.Join(root, "child/lib/util.ts"), filepath.Join(root, "child/lib/util2.ts"))
		}, map[string]string{"child": "not-built sources-changed"}},
		{"a file replaced by rename", func(t *testing.T, root string) {
			writeFile(t, root, "child/lib/new.tmp", "export const u = 3;\n")
			os.Rename(filepath.Join(root, "child/lib/new.tmp"), filepath.Join(root, "child/lib/util.ts"))
		}, map[string]string{"child": "not-built sources-changed"}},
		{"an added workflow", func(t *testing.T, root string) {
			writeFile(t, root, "added/workflow.yaml", "name: added\nshortDescription: s\nlongDescription: l\n")
			writeFile(t, root, "added/workflow.ts", "export {};\n")
		}, map[string]string{"added": "not-built never-built"}},
		{"a directory that becomes a workflow", func(t *testing.T, root string) {
			writeFile(t, root, "lib/workflow.yaml", "name: lib\nshortDescription: s\nlongDescription: l\n")
		}, map[string]string{"lib": "not-built never-built"}},
		{"a removed workflow", func(t *testing.T, root string) {
			os.RemoveAll(filepath.Join(root, "child"))
		}, map[string]string{"child": "absent", "parent": "not-built missing-reference"}},
		{"a renamed workflow directory", func(t *testing.T, root string) {
			os.Rename(filepath.Join(root, "fresh"), filepath.Join(root, "fresh2"))
		}, map[string]string{"fresh": "not-built never-built"}},
		{"a changed manifest", func(t *testing.T, root string) {
			writeFile(t, root, "fresh/workflow.yaml", "name: fresh\nshortDescription: changed\nlongDescription: l\n")
		}, map[string]string{"fresh": "not-built never-built"}},
		{"an invalid manifest", func(t *testing.T, root string) {
			writeFile(t, root, "fresh/workflow.yaml", "name: fresh\n")
		}, map[string]string{"fresh": "absent"}},
		{"a removed record", func(t *testing.T, root string) {
			os.Remove(filepath.Join(root, "child", freshness.RecordFile))
		}, map[string]string{"child": "not-built never-built", "parent": "built "}},
		{"a corrupt record", func(t *testing.T, root string) {
			writeFile(t, root, "parent/"+freshness.RecordFile, "{")
		}, map[string]string{"parent": "not-built record-unreadable"}},
		{"a record where there was none", func(t *testing.T, root string) {
			markBuilt(t, root, "fresh")
		}, map[string]string{"fresh": "built "}},
		{"a removed compiled entry", func(t *testing.T, root string) {
			os.RemoveAll(filepath.Join(root, "child/dist/child"))
		}, map[string]string{"child": "not-built output-missing"}},
		{"an edited shared file", func(t *testing.T, root string) {
			writeFile(t, root, "lib/common.ts", "export const c = 2;\n")
		}, map[string]string{"shared": "not-built sources-changed", "child": "built "}},
		{"a file that takes over an import's resolution", func(t *testing.T, root string) {
			writeFile(t, root, "lib/other.ts", "export const o = 1;\n")
		}, map[string]string{"shared": "not-built sources-changed"}},
		{"a shared directory replaced by a link", func(t *testing.T, root string) {
			elsewhere := filepath.Join(root, "lib2")
			os.Rename(filepath.Join(root, "lib"), elsewhere)
			os.Symlink(elsewhere, filepath.Join(root, "lib"))
		}, map[string]string{"shared": "built "}},
		{"a file created where an import resolved nowhere", func(t *testing.T, root string) {
			writeFile(t, root, "dangling/missing.ts", "export {};\n")
		}, map[string]string{"dangling": "not-built sources-changed"}},
		{"a corrupt index", func(t *testing.T, root string) {
			writeFile(t, root, IndexFile, "{\"format\": 1, \"workflows\": ")
		}, map[string]string{"child": "built "}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := indexFixture(t)
			c.change(t, root)
			cat := compareWithoutIndex(t, root)
			for name, want := range c.want {
				if got := statusOf(cat, name); got != want {
					t.Errorf("%s: %q, want %q", name, got, want)
				}
			}
		})
	}
}

// A build refreshes the index: entries that still hold are kept as they
// are, changed workflows are scanned again and entered.
func TestWriteIndexKeepsHoldingEntriesAndRescansTheRest(t *testing.T) {
	root := indexFixture(t)
	before := readIndex(root)
	writeFile(t, root, "fresh/lib/util.ts", "export const u = 9;\n")
	after := writeIndexSettled(t, root)
	if !reflect.DeepEqual(before.entry("child"), after.entry("child")) {
		t.Errorf("the unchanged child's entry changed")
	}
	if reflect.DeepEqual(before.entry("fresh").Files, after.entry("fresh").Files) {
		t.Errorf("the edited workflow's entry was kept")
	}
	if got := indexedNames(compareWithoutIndex(t, root)); len(got) != 4 {
		t.Errorf("indexed after the rewrite: %v", got)
	}
}

// A root moved with its index (the project directory renamed) keeps every
// stat data of its files, but the index names the old root: it is not
// used, and the listing is what a full read gives.
func TestIndexOfAnotherRootIsIgnored(t *testing.T) {
	root := indexFixture(t)
	project := filepath.Dir(filepath.Dir(root))
	moved := project + "-moved"
	if err := os.Rename(project, moved); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(moved) })
	movedRoot := filepath.Join(moved, ".stratos", "workflows")
	c := compareWithoutIndex(t, movedRoot)
	if got := indexedNames(c); len(got) != 0 {
		t.Errorf("taken from the old root's index: %v", got)
	}
	if got := statusOf(c, "child"); got != "built " {
		t.Errorf("child: %q, want built", got)
	}
}

// A workflow with a file changed at or after the instant the writer began
// (racily clean: it could change again within the same timestamp tick
// without its stat data changing) is left out of the index and read by
// every listing; a file dated in the future stands for it here.
func TestWriteIndexLeavesOutRacyWorkflows(t *testing.T) {
	root := indexFixture(t)
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "child/lib/util.ts"), future, future); err != nil {
		t.Fatal(err)
	}
	if err := WriteIndex(root); err != nil {
		t.Fatal(err)
	}
	idx := readIndex(root)
	if idx == nil || idx.entry("child") != nil || idx.entry("parent") == nil {
		t.Fatalf("index after a racy change of child: %v", idx)
	}
	c := compareWithoutIndex(t, root)
	if got := indexedNames(c); !reflect.DeepEqual(got, []string{"fresh", "parent", "shared"}) {
		t.Errorf("taken from the index: %v, want fresh, parent, shared", got)
	}
}

// A build that changed nothing the index covers leaves it as it is (a
// rewrite would cost a large root a marshal and a write per build).
func TestWriteIndexLeavesAHoldingIndexAlone(t *testing.T) {
	root := indexFixture(t)
	// A workflow the index cannot hold has it rewritten by every build.
	os.RemoveAll(filepath.Join(root, "dangling"))
	writeIndexSettled(t, root) // the removal changed the root directory just now
	p := filepath.Join(root, IndexFile)
	before, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	genBefore := pathStat(t, filepath.Dir(p))
	if err := WriteIndex(root); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("the index was rewritten though every entry held")
	}
	// Nothing else changes either: a build that changed nothing leaves
	// the generated directory (which holds the wrappers workflows import)
	// as it was.
	if genAfter := pathStat(t, filepath.Dir(p)); genAfter != genBefore {
		t.Errorf("the generated directory changed: %+v, then %+v", genBefore, genAfter)
	}
	os.RemoveAll(filepath.Join(root, "fresh"))
	if err := WriteIndex(root); err != nil {
		t.Fatal(err)
	}
	if idx := readIndex(root); idx == nil || idx.entry("fresh") != nil {
		t.Error("the entry of a removed workflow stayed in the index")
	}
}

func pathStat(t *testing.T, path string) filestat.Stat {
	t.Helper()
	st, err := filestat.Path(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A workflow importing the root's shared lib/ does not depend on the
// root's other entries: it stays taken from the index when a workflow is
// added beside it.
func TestIndexKeepsSharedImportersWhenAWorkflowIsAdded(t *testing.T) {
	root := indexFixture(t)
	writeFile(t, root, "added/workflow.yaml", "name: added\nshortDescription: s\nlongDescription: l\n")
	writeFile(t, root, "added/workflow.ts", "export {};\n")
	c := compareWithoutIndex(t, root)
	if got := indexedNames(c); !reflect.DeepEqual(got, []string{"child", "fresh", "parent", "shared"}) {
		t.Errorf("taken from the index after a workflow was added: %v; want child, fresh, parent, shared", got)
	}
}
