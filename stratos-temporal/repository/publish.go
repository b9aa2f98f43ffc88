package repository

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// Identity git commits an agent's work with when the worker's git has
// none of its own.
const (
	committerName  = "Stratos"
	committerEmail = "stratos@localhost"
)

// Work is an agent's worktree after an execute, and where it goes.
type Work struct {
	// Dir is the worktree's checkout; Branch its branch (stratos/<name>).
	Dir, Branch string
	Remote      string
	RunID       string
	// Message is the commit's message.
	Message string
}

// WorkIn is the work of an agent in its worktree wt: its branch
// (stratos/<name>) goes to remote.
func WorkIn(wt eventapi.WorktreeAcquired, remote, runID, message string) Work {
	return Work{Dir: wt.Path, Branch: "stratos/" + wt.Name, Remote: remote, RunID: runID, Message: message}
}

// PublishError is work that did not reach the remote's branch: Code is
// temporalapi.CodePushRejected (the commit is on the remote at Ref instead)
// or temporalapi.CodePush.
type PublishError struct {
	Code, Remote, Branch, Ref string
	Err                       error
}

func (e *PublishError) Error() string {
	if e.Code == temporalapi.CodePushRejected {
		return fmt.Sprintf("the remote %s refused branch %s (another push moved it; nothing is forced or merged): the agent's commit is on the remote as %s: %v", e.Remote, e.Branch, e.Ref, e.Err)
	}
	return fmt.Sprintf("publish the agent's work to branch %s of %s: %v", e.Branch, e.Remote, e.Err)
}

func (e *PublishError) Unwrap() error { return e.Err }

// ErrorCode is the temporalapi code of a Publish error.
func ErrorCode(err error) string {
	var pe *PublishError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return temporalapi.CodePush
}

// Publish commits what the agent left in its worktree (when it left
// anything) and pushes the branch to the remote, never forced. When the
// remote's branch moved, the commit goes to refs/stratos/rejected/<run>/<name>
// instead, so it is not only on this machine, and the error says so.
func Publish(ctx context.Context, w Work) (engine.Branch, error) {
	fail := func(err error) (engine.Branch, error) {
		return engine.Branch{}, &PublishError{Code: temporalapi.CodePush, Remote: w.Remote, Branch: w.Branch, Err: err}
	}
	if _, err := git(ctx, localWait, w.Dir, "stage the changes in "+w.Dir, "add", "--all"); err != nil {
		return fail(err)
	}
	if _, err := git(ctx, localWait, w.Dir, "look for staged changes in "+w.Dir, "diff", "--cached", "--quiet"); err != nil {
		if err := commit(ctx, w); err != nil {
			return fail(err)
		}
	}
	head, err := git(ctx, localWait, w.Dir, "read HEAD of "+w.Dir, "rev-parse", "--verify", "HEAD")
	if err != nil {
		return fail(err)
	}
	ref := "refs/heads/" + w.Branch
	_, err = git(ctx, networkWait, w.Dir, fmt.Sprintf("push %s to %s of %s", head, ref, w.Remote), "push", "--quiet", w.Remote, head+":"+ref)
	if err == nil {
		return engine.Branch{Name: w.Branch, Commit: head, Remote: w.Remote}, nil
	}
	if !isRejected(err) {
		return fail(err)
	}
	aside := "refs/stratos/rejected/" + safeName(w.RunID) + "/" + strings.TrimPrefix(w.Branch, "stratos/")
	if _, perr := git(ctx, networkWait, w.Dir, fmt.Sprintf("push %s to %s of %s", head, aside, w.Remote), "push", "--quiet", "--force", w.Remote, head+":"+aside); perr != nil {
		return fail(fmt.Errorf("%v; then %v", err, perr))
	}
	return engine.Branch{}, &PublishError{Code: temporalapi.CodePushRejected, Remote: w.Remote, Branch: w.Branch, Ref: aside, Err: err}
}

// commit commits what is staged, as the worker's git identity or, when it
// has none, as Stratos.
func commit(ctx context.Context, w Work) error {
	args := []string{"commit", "--quiet", "--no-verify", "-m", w.Message}
	if email, _ := git(ctx, localWait, w.Dir, "read git's user.email", "config", "user.email"); email == "" {
		args = append([]string{"-c", "user.name=" + committerName, "-c", "user.email=" + committerEmail}, args...)
	}
	_, err := git(ctx, localWait, w.Dir, "commit the agent's changes in "+w.Dir, args...)
	return err
}

// See makes the branch an agent worker pushed visible in the repository
// of dir (the workflow code's), as a local run's worktree branch is: it
// fetches the commit from the remote into refs/heads/<branch>. A branch
// already at the commit (the same repository: one machine) is left alone,
// as is one checked out in a worktree here, which git does not let a fetch
// move.
func See(ctx context.Context, dir string, b engine.Branch) error {
	ref := "refs/heads/" + b.Name
	if have, _ := git(ctx, localWait, dir, "read "+ref, "rev-parse", "--verify", "--quiet", ref); have == b.Commit {
		return nil
	}
	_, err := git(ctx, networkWait, dir, fmt.Sprintf("fetch %s (%s) from %s", ref, b.Commit, b.Remote), "fetch", "--quiet", "--no-tags", b.Remote, "+"+b.Commit+":"+ref)
	return err
}
