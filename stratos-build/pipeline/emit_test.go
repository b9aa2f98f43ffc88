package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listFiles returns the files under dir, relative and slash-separated.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func stat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

func TestPlaceMovesAnUnsharedWorkflowDirectoryWhole(t *testing.T) {
	scratch, dst := t.TempDir(), t.TempDir()
	writeFile(t, scratch, "wf/workflow.js", "entry")
	writeFile(t, scratch, "wf/sub/a.js", "a")
	before := stat(t, filepath.Join(scratch, "wf"))
	closure := []string{"wf/workflow.ts", "wf/sub/a.ts", "wf/types.d.ts"}
	if err := emittedBy([][]string{closure}).place(scratch, dst, closure); err != nil {
		t.Fatal(err)
	}
	if got, want := listFiles(t, dst), []string{"wf/sub/a.js", "wf/workflow.js"}; !slices.Equal(got, want) {
		t.Fatalf("placed %q, want %q", got, want)
	}
	if !os.SameFile(before, stat(t, filepath.Join(dst, "wf"))) {
		t.Fatal("the directory was not moved whole")
	}
}

// When the workflow's directory in the shared output holds a file another
// job needs, the shortcut does not hold: each job gets exactly its files.
func TestPlaceGoesFileByFileWhenTheDirectoryHoldsAnotherJobsFile(t *testing.T) {
	scratch, dstA, dstB := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, scratch, "a/workflow.js", "a")
	writeFile(t, scratch, "a/helper.js", "helper")
	writeFile(t, scratch, "b/workflow.js", "b")
	closureA := []string{"a/workflow.ts"}
	closureB := []string{"b/workflow.ts", "a/helper.ts"}
	files := emittedBy([][]string{closureA, closureB})
	if err := files.place(scratch, dstA, closureA); err != nil {
		t.Fatal(err)
	}
	if err := files.place(scratch, dstB, closureB); err != nil {
		t.Fatal(err)
	}
	if got, want := listFiles(t, dstA), []string{"a/workflow.js"}; !slices.Equal(got, want) {
		t.Fatalf("a got %q, want %q", got, want)
	}
	if got, want := listFiles(t, dstB), []string{"a/helper.js", "b/workflow.js"}; !slices.Equal(got, want) {
		t.Fatalf("b got %q, want %q", got, want)
	}
}

func TestPlaceCopiesASharedFileForAllButTheLastJob(t *testing.T) {
	scratch, dstA, dstB := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, scratch, "a/workflow.js", "a")
	writeFile(t, scratch, "b/workflow.js", "b")
	writeFile(t, scratch, "lib/shared.js", "shared")
	closureA := []string{"a/workflow.ts", "lib/shared.ts"}
	closureB := []string{"b/workflow.ts", "lib/shared.ts"}
	files := emittedBy([][]string{closureA, closureB})
	for _, c := range []struct {
		dst     string
		closure []string
	}{{dstA, closureA}, {dstB, closureB}} {
		if err := files.place(scratch, c.dst, c.closure); err != nil {
			t.Fatal(err)
		}
	}
	a, b := filepath.Join(dstA, "lib", "shared.js"), filepath.Join(dstB, "lib", "shared.js")
	for _, p := range []string{a, b} {
		if data, err := os.ReadFile(p); err != nil || string(data) != "shared" {
			t.Fatalf("%s = %q, %v", p, data, err)
		}
	}
	if os.SameFile(stat(t, a), stat(t, b)) {
		t.Fatal("two workflows' dist/ trees share one file")
	}
	if _, err := os.Stat(filepath.Join(scratch, "lib", "shared.js")); !os.IsNotExist(err) {
		t.Fatalf("the last job copied the shared file instead of taking it: %v", err)
	}
}

func TestPlaceReportsAFileTheRunDidNotEmit(t *testing.T) {
	scratch, dst := t.TempDir(), t.TempDir()
	writeFile(t, scratch, "wf/workflow.js", "entry")
	closure := []string{"wf/workflow.ts", "wf/missing.ts"}
	err := emittedBy([][]string{closure}).place(scratch, dst, closure)
	if err == nil || !strings.Contains(err.Error(), "did not emit wf/missing.js") {
		t.Fatalf("err = %v, want the missing file named", err)
	}
}
