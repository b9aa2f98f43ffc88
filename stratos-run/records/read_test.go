package records

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// ReadFile reads a regular file within its limit and nothing else, without
// blocking on a FIFO or reading a device without end.
func TestReadFileReadsOnlyRegularFilesWithinTheLimit(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	if err := os.WriteFile(path("ten"), []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, st, err := ReadFile(path("ten"), 10); err != nil || string(data) != "0123456789" || st.Size != 10 || st.Ino == 0 {
		t.Errorf("a file at the limit: %q, %+v, %v", data, st, err)
	}
	if _, _, err := ReadFile(path("ten"), 9); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a file over the limit: %v, want ErrTooLarge", err)
	}
	if err := syscall.Mkfifo(path("fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", path("zero")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fifo", "zero", "."} {
		if _, _, err := ReadFile(path(name), 10); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: %v, want ErrNotRegular", name, err)
		}
	}
	if _, _, err := ReadFile(path("missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v, want ErrNotExist", err)
	}
}
