package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// workflow.yaml is read bounded, and only as a regular file: discovery
// must not block on a FIFO nor read /dev/zero to the end of memory.
func TestLoadReadsABoundedRegularFile(t *testing.T) {
	big := t.TempDir()
	text := "name: big\nshortDescription: s\nlongDescription: |\n  " + strings.Repeat("x", MaxFileBytes) + "\n"
	if err := os.WriteFile(filepath.Join(big, FileName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, problems := Load(big)
	file := filepath.Join(big, FileName)
	if len(problems) != 1 || problems[0].Code != CodeTooLarge || problems[0].Message != fmt.Sprintf("%s is %d bytes, over the limit of %d bytes (4 MiB)", file, len(text), MaxFileBytes) ||
		*problems[0].Actual != len(text) || *problems[0].Max != MaxFileBytes {
		t.Errorf("a manifest over the limit: %+v", problems)
	}

	fifo := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(fifo, FileName), 0o600); err != nil {
		t.Fatal(err)
	}
	zero := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(zero, FileName)); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{fifo: "not a regular file (a FIFO)", zero: "not a regular file (a device)"} {
		_, problems := Load(dir)
		if len(problems) != 1 || problems[0].Code != CodeUnreadable || !strings.HasSuffix(problems[0].Message, want) {
			t.Errorf("%s: %+v, want %s", dir, problems, want)
		}
	}
}
