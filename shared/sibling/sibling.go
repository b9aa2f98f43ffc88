// Package sibling finds the other Stratos tools. Tools never import each
// other; they execute each other's binaries with JSON on stdin/stdout
// (shared/toolcall), which keeps every boundary testable from a shell.
package sibling

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
)

// EnvBinDir names a directory searched for tools after the caller's own
// directory and before PATH.
const EnvBinDir = "STRATOS_BIN_DIR"

// Find returns the path of the named tool (e.g. "stratos-build"): next to the
// running executable first, then in $STRATOS_BIN_DIR, then on PATH.
func Find(tool string) (string, error) {
	var dirs []string
	if exe, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(exe))
	}
	if d := os.Getenv(EnvBinDir); d != "" {
		dirs = append(dirs, d)
	}
	for _, d := range dirs {
		p := filepath.Join(d, tool)
		if isExecutable(p) {
			return p, nil
		}
	}
	if p, err := exec.LookPath(tool); err == nil {
		return p, nil
	}
	return "", clierr.New(errcode.CodeToolNotFound,
		"%s not found next to this executable, in $%s or on PATH; install all Stratos binaries together (scripts/install)", tool, EnvBinDir).
		WithDetails(map[string]any{"tool": tool})
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
