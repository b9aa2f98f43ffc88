package settings

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
)

// The settings file is read bounded, and only as a regular file: a FIFO
// would block the command and /dev/zero would never end.
func TestLoadReadsABoundedRegularFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"agents":{}}`+strings.Repeat(" ", MaxFileBytes)), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		big:  "read " + big + ": 1048589 bytes, over the limit of 1048576 bytes (1 MiB)",
		fifo: "read " + fifo + ": not a regular file (a FIFO)",
		zero: "read " + zero + ": not a regular file (a device)",
	} {
		_, err := Load(path)
		ce := clierr.As(err)
		if err == nil || ce.Code != discoverapi.CodeSettingsInvalid || ce.Exit != clierr.ExitUsage || ce.Message != want {
			t.Errorf("Load(%s) = %v; want settings_invalid, exit 2, %q", path, err, want)
		}
	}
}
