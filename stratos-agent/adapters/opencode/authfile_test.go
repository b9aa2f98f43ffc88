package opencode

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The credentials list is read only as a regular file: a FIFO there would
// block the agent's start.
func TestAuthFileMustBeARegularFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "opencode", "auth.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(file, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := checkAuth([]string{"XDG_DATA_HOME=" + dir}, "anthropic")
	if err == nil || !strings.Contains(err.Error(), "not a regular file (a FIFO)") {
		t.Errorf("checkAuth with a FIFO auth.json: %v", err)
	}
}
