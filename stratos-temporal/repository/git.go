// Package repository gives a run's workers its git repository when they
// do not have the submitter's directory: the run names a remote and a
// commit (Describe, on the submitting machine), each worker keeps a cache
// per remote and a checkout per run (Checkouts), and the work agents do in
// worktrees goes back to the remote after each execute (Publish), from
// where the workflow code's repository gets it (See).
package repository

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/procgroup"
)

// Bounds of git's operations: a remote that does not answer must not hold
// a worker (or the submitter) for ever.
const (
	localWait   = 30 * time.Second // a command that touches no remote
	networkWait = 2 * time.Minute  // fetch and push
	probeWait   = 20 * time.Second // the submitter's question to the remote
)

// maxGitOutput bounds what a git command's output keeps (its error names
// the end of it).
const maxGitOutput = 64 << 10

// gitError is a git command that failed: what it was doing and what git
// said.
type gitError struct {
	what   string
	stderr string
	err    error
}

func (e *gitError) Error() string {
	msg := strings.TrimSpace(e.stderr)
	if msg == "" {
		msg = e.err.Error()
	}
	return e.what + ": " + msg
}

func (e *gitError) Unwrap() error { return e.err }

// git runs git in dir (none: "") for at most wait and returns its stdout.
// what says what it does, for the error (naming the remote and the ref
// when there is one). Git never asks a terminal for a password here: a
// remote that wants one fails.
func git(ctx context.Context, wait time.Duration, dir, what string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=", "GCM_INTERACTIVE=never")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &capped{b: &stdout}, &capped{b: &stderr}
	cmd.WaitDelay = time.Second
	err := procgroup.Run(cmd, procgroup.Options{})
	if ctx.Err() == context.DeadlineExceeded {
		return "", &gitError{what: what, err: fmt.Errorf("no answer within %s", wait)}
	}
	if err != nil {
		return "", &gitError{what: what, stderr: stderr.String(), err: err}
	}
	return strings.TrimSpace(stdout.String()), nil
}

// capped keeps the first maxGitOutput bytes written to it.
type capped struct{ b *bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxGitOutput - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// isRejected reports whether a push failed because the remote's branch
// moved (not a fast-forward), as opposed to the remote being unreachable.
func isRejected(err error) bool {
	var ge *gitError
	if !errors.As(err, &ge) {
		return false
	}
	return strings.Contains(ge.stderr, "[rejected]") || strings.Contains(ge.stderr, "non-fast-forward") || strings.Contains(ge.stderr, "fetch first")
}
