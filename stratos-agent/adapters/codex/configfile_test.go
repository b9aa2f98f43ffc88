package codex

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The user's config.toml is read only as a regular file: a FIFO there
// would block the agent's start.
func TestConfigFileMustBeARegularFile(t *testing.T) {
	home := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(home, "config.toml"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := azureProvider([]string{"CODEX_HOME=" + home})
	if err == nil || !strings.Contains(err.Error(), "not a regular file (a FIFO)") {
		t.Errorf("azureProvider with a FIFO config.toml: %v", err)
	}
}
