package gitx

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A .git that is a FIFO (or a device) is left to git, never read: reading
// it would block, or never end.
func TestFindLayoutDoesNotReadAFIFOGitFile(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, ".git"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := FindLayout(dir); !errors.Is(err, ErrUnsure) {
		t.Errorf("FindLayout = %v, want ErrUnsure", err)
	}
	zero := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(zero, ".git")); err != nil {
		t.Fatal(err)
	}
	if _, err := FindLayout(zero); !errors.Is(err, ErrUnsure) {
		t.Errorf("FindLayout with .git -> /dev/zero = %v, want ErrUnsure", err)
	}
}
