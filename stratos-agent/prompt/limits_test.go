package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// A prompt file is read bounded, and only as a regular file: /dev/zero
// would never end and a FIFO would block the execute.
func TestPromptFilesAreBoundedRegularFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.md"), []byte(strings.Repeat("x", MaxFileBytes+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  agentproto.PromptSource
		want string
	}{
		{agentproto.PromptSource{File: "big.md"}, "big.md: 4194305 bytes, over the limit of 4194304 bytes (4 MiB)"},
		{agentproto.PromptSource{Template: "/dev/zero"}, "read /dev/zero: not a regular file (a device)"},
	} {
		_, err := Load(c.src, dir)
		if agentproto.CodeOf(err) != agentproto.CodePromptFile || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v; want a prompt_file error containing %q", c.src, err, c.want)
		}
	}
}
