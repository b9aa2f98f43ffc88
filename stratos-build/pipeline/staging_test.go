package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// The compiled entry a build loads its definition from has the same path
// on every build of a workflow, so node's compile cache, keyed by path,
// holds one entry per workflow instead of gaining one per build.
func TestStagingIsTheSameDirectoryOnEveryBuild(t *testing.T) {
	wf := t.TempDir()
	first, err := newStaging(wf)
	if err != nil {
		t.Fatal(err)
	}
	firstEntry := first.entry("workflow.ts")
	first.discard()
	second, err := newStaging(wf)
	if err != nil {
		t.Fatal(err)
	}
	if second.dir != first.dir || second.entry("workflow.ts") != firstEntry {
		t.Fatalf("second build stages in %s (entry %s), first in %s (entry %s)", second.dir, second.entry("workflow.ts"), first.dir, firstEntry)
	}
}

// What a killed build left behind (its staging directory, or the previous
// output it had moved aside) is removed, and the new build starts empty.
func TestStagingStartsEmptyAfterAKilledBuild(t *testing.T) {
	wf := t.TempDir()
	writeFile(t, wf, stagingName+"/wf/workflow.js", "export default 1;")
	writeFile(t, wf, stagingName+".old/wf/workflow.js", "export default 0;")
	s, err := newStaging(wf)
	if err != nil {
		t.Fatal(err)
	}
	left, err := os.ReadDir(s.dir)
	if err != nil || len(left) != 0 {
		t.Fatalf("staging directory holds %v (%v), want nothing", left, err)
	}
	if _, err := os.Stat(filepath.Join(wf, stagingName+".old")); !os.IsNotExist(err) {
		t.Fatalf("the killed build's moved-aside output is still there (%v)", err)
	}
	fi, err := os.Stat(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Fatalf("staging directory mode = %v, want 0700 like before", fi.Mode().Perm())
	}
}
