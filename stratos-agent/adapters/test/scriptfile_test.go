package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// A script file is read bounded, and only as a regular file: /dev/zero
// would never end and a FIFO would block the agent's start.
func TestScriptFilesAreBoundedRegularFiles(t *testing.T) {
	dir := t.TempDir()
	big := "turns:\n  - reply: " + strings.Repeat("x", MaxScriptFileBytes) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "big.yaml"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		"big.yaml":  "big.yaml: 4194323 bytes, over the limit of 4194304 bytes (4 MiB)",
		"/dev/zero": "read /dev/zero: not a regular file (a device)",
		"fifo.yaml": "fifo.yaml: not a regular file (a FIFO)",
	} {
		raw, _ := json.Marshal(map[string]string{"file": file})
		_, err := LoadScript(raw, dir)
		if e, ok := err.(*agentproto.Error); !ok || e.Code != agentproto.CodeConfiguration || !strings.Contains(e.Message, want) {
			t.Errorf("script file %s: %v; want a configuration error containing %q", file, err, want)
		}
	}
}
