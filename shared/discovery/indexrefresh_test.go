package discovery

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// refreshSettled refreshes the root's index after a build that touched
// the named workflows, again until want of them are in it: a workflow
// changed in the same timestamp tick as the refresh began is left out
// (racily clean), and the next refresh scans it again as it has no entry.
func refreshSettled(t *testing.T, root string, want int, touched ...string) *listIndex {
	t.Helper()
	var dirs []string
	for _, name := range touched {
		dirs = append(dirs, filepath.Join(root, name))
	}
	for range 300 {
		if err := RefreshIndex(root, dirs); err != nil {
			t.Fatal(err)
		}
		idx := readIndex(root)
		if idx == nil {
			t.Fatal("the refreshed index does not read back")
		}
		if len(idx.lines) == want {
			return idx
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the refreshed index never held %d workflows", want)
	return nil
}

// A leaf edited and rebuilt: its entry is scanned again, every other
// entry is kept as the very line it was.
func TestRefreshIndexRescansTheTouchedWorkflowOnly(t *testing.T) {
	root := indexFixture(t)
	before := readIndex(root)
	writeFile(t, root, "child/lib/util.ts", "export const u = 7;\n")
	markBuilt(t, root, "child")
	after := refreshSettled(t, root, 4, "child")
	if bytes.Equal(before.lines["child"], after.lines["child"]) {
		t.Error("the touched workflow's entry was kept")
	}
	for _, name := range []string{"fresh", "parent", "shared"} {
		if !bytes.Equal(before.lines[name], after.lines[name]) {
			t.Errorf("the untouched %s's entry changed", name)
		}
	}
	c := compareWithoutIndex(t, root)
	if got := indexedNames(c); !reflect.DeepEqual(got, []string{"child", "fresh", "parent", "shared"}) {
		t.Errorf("taken from the index: %v; want all four", got)
	}
	if got := statusOf(c, "parent"); got != "not-built reference-changed" {
		t.Errorf("parent: %q, want not-built reference-changed", got)
	}
}

// A build that changed nothing leaves the index file as it is, even with
// a workflow the index cannot hold (scanned again each time, but its
// outcome is the same); and with none, it does not even read the clock.
func TestRefreshIndexOfANoOpBuildWritesNothing(t *testing.T) {
	root := indexFixture(t)
	p := filepath.Join(root, IndexFile)
	before := pathStat(t, p)
	if err := RefreshIndex(root, []string{}); err != nil {
		t.Fatal(err)
	}
	if after := pathStat(t, p); after != before {
		t.Error("a no-op refresh rewrote the index")
	}
	os.RemoveAll(filepath.Join(root, "dangling"))
	refreshSettled(t, root, 4)
	before = pathStat(t, p)
	if err := RefreshIndex(root, []string{filepath.Join(root, "parent")}); err != nil {
		t.Fatal(err)
	}
	if after := pathStat(t, p); after != before {
		t.Error("refreshing a workflow that did not change rewrote the index")
	}
	clockBefore := pathStat(t, filepath.Join(root, clockDir))
	if err := RefreshIndex(root, nil); err != nil {
		t.Fatal(err)
	}
	if after := pathStat(t, filepath.Join(root, clockDir)); after != clockBefore {
		t.Error("a refresh with nothing to scan read the clock")
	}
}

// A workflow edited but not rebuilt keeps its entry, stale: listing finds
// it does not hold and reads the workflow, so the listing is still right.
func TestRefreshIndexKeepsUntouchedEntriesUnchecked(t *testing.T) {
	root := indexFixture(t)
	before := readIndex(root)
	writeFile(t, root, "fresh/lib/util.ts", "export const u = 8;\n")
	writeFile(t, root, "added/workflow.yaml", "name: added\nshortDescription: s\nlongDescription: l\n")
	writeFile(t, root, "added/workflow.ts", "export {};\n")
	after := refreshSettled(t, root, 5, "added")
	if !bytes.Equal(before.lines["fresh"], after.lines["fresh"]) {
		t.Error("an untouched workflow was rescanned")
	}
	c := compareWithoutIndex(t, root)
	if got := indexedNames(c); !reflect.DeepEqual(got, []string{"added", "child", "parent", "shared"}) {
		t.Errorf("taken from the index: %v; want added, child, parent, shared", got)
	}
}

func TestRefreshIndexDropsTheEntriesOfRemovedWorkflows(t *testing.T) {
	root := indexFixture(t)
	os.RemoveAll(filepath.Join(root, "fresh"))
	idx := refreshSettled(t, root, 3)
	if _, ok := idx.lines["fresh"]; ok {
		t.Error("the entry of a removed workflow stayed in the index")
	}
	compareWithoutIndex(t, root)
}

// A rescanned workflow named like another falls back to WriteIndex, which
// leaves both duplicates out.
func TestRefreshIndexOfANameClashWritesTheWholeIndex(t *testing.T) {
	root := indexFixture(t)
	writeFile(t, root, "clash/workflow.yaml", "name: fresh\nshortDescription: s\nlongDescription: l\n")
	writeFile(t, root, "clash/workflow.ts", "export {};\n")
	idx := refreshSettled(t, root, 3, "clash")
	for _, dir := range []string{"clash", "fresh"} {
		if _, ok := idx.lines[dir]; ok {
			t.Errorf("%s, one of two workflows named fresh, is in the index", dir)
		}
	}
	if got := statusOf(compareWithoutIndex(t, root), "fresh"); got != "absent" {
		t.Errorf("fresh: %q, want absent (a duplicate)", got)
	}
}

// An index of the previous format (one JSON document) is not read: listing
// reads every workflow, and the next refresh writes the index anew.
func TestIndexOfTheOldFormatIsIgnoredAndRewritten(t *testing.T) {
	root := indexFixture(t)
	writeFile(t, root, IndexFile, `{"format":1,"root":"`+root+`","workflows":{}}`)
	if got := indexedNames(compareWithoutIndex(t, root)); len(got) != 0 {
		t.Errorf("taken from an index of the old format: %v", got)
	}
	refreshSettled(t, root, 4)
	if got := indexedNames(compareWithoutIndex(t, root)); len(got) != 4 {
		t.Errorf("taken from the rewritten index: %v", got)
	}
}

// The index is JSON lines, one entry a line: a corrupt entry costs that
// workflow only.
func TestIndexIsReadByEntry(t *testing.T) {
	root := indexFixture(t)
	p := filepath.Join(root, IndexFile)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'})
	if len(lines) != 5 || !bytes.HasPrefix(lines[0], headerPrefix) {
		t.Fatalf("index of %d lines, first %.40q: want the header and four entries", len(lines), lines[0])
	}
	for i, line := range lines[1:] {
		if bytes.HasPrefix(line, []byte(`{"dir":"child"`)) {
			lines[i+1] = []byte(`{"dir":"child","manifest":`)
		}
	}
	writeFile(t, root, IndexFile, string(bytes.Join(lines, []byte{'\n'}))+"\n")
	if got := indexedNames(compareWithoutIndex(t, root)); !reflect.DeepEqual(got, []string{"fresh", "parent", "shared"}) {
		t.Errorf("taken from the index with child's entry corrupt: %v; want fresh, parent, shared", got)
	}
}
