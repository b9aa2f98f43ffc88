package pipeline

import (
	"fmt"
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

func TestWriteBehindNeverBlocksTheWriters(t *testing.T) {
	dir := t.TempDir()
	wb := startWriteBehind(dir)
	for i := range 100 {
		writeFile(t, dir, fmt.Sprintf("f%d", i), "x")
		wb.nudge()
	}
	wb.stop()
	wb.nudge() // after stop: nothing runs, nothing blocks
	select {
	case <-wb.done:
	default:
		t.Fatal("stop returned before the write-behind goroutine ended")
	}
}

func TestWriteBehindOfAMissingDirectoryLeavesTheErrorToTheFlush(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone")
	wb := startWriteBehind(gone)
	wb.nudge()
	wb.stop()
	if err := syncFileSystems([]string{gone}); err == nil {
		t.Fatal("flushing the file system of a missing directory reported no error")
	}
}

func TestWriteBehindWritesBackOncePerSeveralWorkflows(t *testing.T) {
	wb := &writeBehind{nudges: make(chan struct{}, 1)} // not running: its signals are counted here
	signals := 0
	for range 10 * writeBehindEvery {
		wb.nudge()
		select {
		case <-wb.nudges:
			signals++
		default:
		}
	}
	if signals != 10 {
		t.Fatalf("%d workflows written signalled %d write-backs, want 10 (one per %d)", 10*writeBehindEvery, signals, writeBehindEvery)
	}
}
