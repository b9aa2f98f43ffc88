package pkgjson

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
)

// A package.json is read bounded, and only as a regular file, which is
// left as it is: a FIFO would block the build, /dev/zero would never end.
func TestEnsureModuleReadsABoundedRegularFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"description":"`+strings.Repeat("x", MaxFileBytes)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		big:         "read " + big + ": 1048594 bytes, over the limit of 1048576 bytes (1 MiB)",
		fifo:        "read " + fifo + ": not a regular file (a FIFO)",
		"/dev/zero": "read /dev/zero: not a regular file (a device)",
	} {
		changed, err := EnsureModule(path)
		ce := clierr.As(err)
		if changed || err == nil || ce.Code != buildapi.CodePackageJSONUnreadable || ce.Message != want {
			t.Errorf("EnsureModule(%s) = %v, %v; want package_json_unreadable, %q", path, changed, err, want)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v, %v", fi, err)
	}
}
