package pipeline

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestTreePathsListFilesBeforeTheirDirectories(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "wf/workflow.js", "x")
	writeFile(t, dir, ".stratos-build.json", "{}")
	got := treePaths(dir)
	want := []string{
		filepath.Join(dir, ".stratos-build.json"), filepath.Join(dir, "wf", "workflow.js"),
		dir, filepath.Join(dir, "wf"),
	}
	if !slices.Equal(got, want) {
		t.Fatalf("treePaths = %q, want %q", got, want)
	}
	if err := syncTree(dir); err != nil {
		t.Fatal(err)
	}
}

func TestSyncPathsReportsWhatItCannotFlush(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a", "x")
	err := syncPaths([]string{filepath.Join(dir, "a"), filepath.Join(dir, "gone")})
	if err == nil {
		t.Fatal("flushing a missing file reported no error")
	}
}

func TestSyncFileSystemsFlushesOncePerFileSystem(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a/x", "x")
	writeFile(t, dir, "b/y", "y")
	if err := syncFileSystems([]string{filepath.Join(dir, "a"), filepath.Join(dir, "b")}); err != nil {
		t.Fatal(err)
	}
	if err := syncFileSystems([]string{filepath.Join(dir, "gone")}); err == nil {
		t.Fatal("flushing the file system of a missing directory reported no error")
	}
}
