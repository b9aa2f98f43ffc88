// Package sibling finds and runs the other Stratos tools. Tools never import
// each other; they execute each other's binaries with JSON on stdin/stdout,
// which keeps every boundary testable from a shell.
package sibling

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/procgroup"
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

// RunJSON runs tool with args, writes in (if non-nil) as JSON on its stdin,
// and decodes its stdout into out (if non-nil). The tool's stderr is passed
// through to stderr so its progress stays visible. A non-zero exit with an
// error envelope on stdout comes back as that *clierr.Error.
func RunJSON(ctx context.Context, tool string, args []string, in, out any, stderr io.Writer) error {
	path, err := Find(tool)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, path, args...)
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("encode input for %s: %w", tool, err)
		}
		cmd.Stdin = bytes.NewReader(b)
	}
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	runErr := procgroup.Run(cmd, procgroup.Options{})
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return fmt.Errorf("run %s: %w", tool, runErr)
	}
	if runErr != nil {
		var env clierr.Envelope
		if json.Unmarshal(stdout.Bytes(), &env) == nil && env.Error.Code != "" {
			return &clierr.Error{Code: env.Error.Code, Message: env.Error.Message, Details: env.Error.Details, Exit: exitErr.ExitCode()}
		}
		return clierr.New(errcode.CodeToolFailed, "%s %v exited with status %d", tool, args, exitErr.ExitCode())
	}
	if out != nil {
		if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
			return fmt.Errorf("decode output of %s: %w", tool, err)
		}
	}
	return nil
}
