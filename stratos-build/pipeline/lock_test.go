package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteHolderRemovesWhatAKilledHolderLeft: a build killed while it
// recorded itself as the lock's holder leaves a temporary file beside the
// record; the next holder removes it and writes a whole, private record.
func TestWriteHolderRemovesWhatAKilledHolderLeft(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "build-0123456789abcdef.json")
	// What atomicfile's writer of path leaves when killed before its rename.
	left := filepath.Join(dir, ".build-0123456789abcdef.json.tmp-123")
	if err := os.WriteFile(left, []byte(`{"pid":`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeHolder(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(left); err == nil {
		t.Fatalf("%s, left by a killed holder, is still there", left)
	}
	if h := readHolder(path); h.PID != os.Getpid() {
		t.Fatalf("holder = %+v, want this process (pid %d)", h, os.Getpid())
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("the holder record (a command line) has mode %v, want 0600", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the locks directory holds %d entries, want the record alone", len(entries))
	}
}
