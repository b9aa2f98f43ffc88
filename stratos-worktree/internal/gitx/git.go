// Package gitx runs the git commands Stratos needs for managed worktrees and
// parses their machine-readable output. It never fetches, merges, resets or
// discards anything: the only writes are `worktree add` and `worktree remove`.
package gitx

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/procgroup"
)

// Git runs git with an environment that cannot redirect it to another
// repository: Stratos always names the repository with -C.
type Git struct {
	Log hclog.Logger
}

// redirectingVars would make git ignore -C and act on another repository or
// index (they are set, for example, inside git hooks).
var redirectingVars = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_NAMESPACE"}

func (g *Git) env() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !contains(redirectingVars, name) {
			out = append(out, kv)
		}
	}
	// Read-only commands (status, list) must not take index.lock: a user's
	// concurrent git command in the same checkout would fail on it.
	return append(out, "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
}

// Error is a failed git command with what it printed on stderr.
type Error struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (e *Error) Unwrap() error { return e.Err }

// gitGroup is how git runs: in its own process group, so its hooks and
// helpers end with it, dying with us. A cancellation sends SIGTERM, not
// SIGKILL: git then runs its own cleanup (`worktree add` removes the
// half-made checkout and its administrative files, lock files are
// deleted) before it exits.
var gitGroup = procgroup.Options{CancelSignal: syscall.SIGTERM}

// Run runs `git -C dir args...` and returns its stdout.
func (g *Git) Run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	full := append([]string{"-C", dir}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = g.env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := procgroup.Run(cmd, gitGroup)
	if g.Log != nil {
		g.Log.Debug("git", "args", full, "exit", cmd.ProcessState.ExitCode())
	}
	if err != nil {
		return stdout.Bytes(), &Error{Args: full, Stderr: stderr.String(), Err: err}
	}
	return stdout.Bytes(), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
