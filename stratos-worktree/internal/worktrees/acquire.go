package worktrees

import (
	"context"
	"errors"
	"fmt"
	"os"
	"unicode"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/shared/procid"
	"github.com/stratoscli/stratos/stratos-worktree/internal/gitx"
	"github.com/stratoscli/stratos/stratos-worktree/internal/harnessctx"
	"github.com/stratoscli/stratos/stratos-worktree/internal/names"
	"github.com/stratoscli/stratos/stratos-worktree/internal/registry"
)

// BranchPrefix starts the name of every branch Stratos creates.
const BranchPrefix = "stratos/"

const originHeadRef = "refs/remotes/origin/HEAD"

// maxNameAttempts bounds the retries of fresh-name generation on collisions.
const maxNameAttempts = 64

// AcquireRequest asks for a managed worktree.
type AcquireRequest struct {
	Dir      string // any directory inside the repository
	Name     string // empty: draw a fresh adjective-noun name
	Owner    string // empty: register no use
	OwnerPID int    // the owner's process (the caller's parent by default)
	Cleanup  bool   // false protects the checkout from cleanup for good
}

// AcquireResult describes the worktree handed out.
type AcquireResult = worktreeapi.AcquireResult

// Acquire creates, recreates or reuses a managed worktree and registers the
// owner's use of it.
func (m *Manager) Acquire(ctx context.Context, req AcquireRequest) (*AcquireResult, error) {
	if req.Name != "" {
		if err := names.Validate(req.Name); err != nil {
			return nil, clierr.Usage(worktreeapi.CodeInvalidName, "%v", err).WithDetails(map[string]any{"name": req.Name})
		}
	}
	owner, err := ownerOf(req.Owner, req.OwnerPID)
	if err != nil {
		return nil, err
	}
	ws, err := m.open(ctx, req.Dir)
	if err != nil {
		return nil, err
	}
	if err := ws.ensureRegistryDir(); err != nil {
		return nil, err
	}
	if err := ws.ensureManagedDir(); err != nil {
		return nil, err
	}
	var res *AcquireResult
	if req.Name != "" {
		res, _, err = m.acquireLocked(ctx, ws, req.Name, req, owner, nil)
	} else {
		res, err = m.acquireFresh(ctx, ws, req, owner)
	}
	if err != nil {
		return nil, err
	}
	res.HarnessContext = harnessctx.Text(harnessctx.Info{Path: res.Path, Repository: res.Repository, Branch: res.Branch, Head: res.Head})
	return res, nil
}

// ownerOf validates the owner id and captures the owner process's identity.
func ownerOf(id string, pid int) (*registry.Owner, error) {
	if id == "" {
		return nil, nil
	}
	if err := validateOwnerID(id); err != nil {
		return nil, err
	}
	ident, err := procid.Of(pid)
	if err != nil {
		return nil, clierr.Usage(worktreeapi.CodeOwnerNotRunning, "owner %q: process %d: %v", id, pid, err).
			WithDetails(map[string]any{"owner": id, "pid": pid})
	}
	return &registry.Owner{ID: id, PID: ident.PID, StartTime: ident.StartTime, AcquiredAt: now()}, nil
}

func validateOwnerID(id string) error {
	if id == "" || len(id) > 200 {
		return clierr.Usage(worktreeapi.CodeInvalidOwner, "owner id %q must be 1 to 200 characters", id)
	}
	for _, r := range id {
		if !unicode.IsPrint(r) {
			return clierr.Usage(worktreeapi.CodeInvalidOwner, "owner id %q contains a non-printable character", id)
		}
	}
	return nil
}

// acquireFresh draws names until one is free of checkout, branch and record.
// One ref listing up front answers both "is this branch taken" for every
// candidate and "where do new branches start".
func (m *Manager) acquireFresh(ctx context.Context, ws *workspace, req AcquireRequest, owner *registry.Owner) (*AcquireResult, error) {
	refs, err := ws.git.Refs(ctx, ws.root, "refs/heads/"+BranchPrefix, originHeadRef)
	if err != nil {
		return nil, clierr.New(worktreeapi.CodeGitFailed, "%v", err).Wrap(err)
	}
	gen := names.NewGenerator()
	for range maxNameAttempts {
		name := gen.Next()
		if _, taken := refs["refs/heads/"+BranchPrefix+name]; taken {
			continue
		}
		if _, err := os.Lstat(ws.checkoutPath(name)); err == nil {
			continue
		}
		res, collided, err := m.acquireLocked(ctx, ws, name, req, owner, refs)
		if collided {
			continue
		}
		return res, err
	}
	return nil, clierr.New(worktreeapi.CodeNamesExhausted, "no free worktree name after %d attempts in %s", maxNameAttempts, ws.managed)
}

// acquireLocked does the work for one name under its lock. For a fresh name
// (refs != nil) anything already there is a collision, reported as such.
func (m *Manager) acquireLocked(ctx context.Context, ws *workspace, name string, req AcquireRequest, owner *registry.Owner, refs map[string]gitx.Ref) (res *AcquireResult, collided bool, err error) {
	fresh := refs != nil
	err = ws.locks.With(ctx, name, func() error {
		rec, hasRec, err := ws.store.Load(name)
		if err != nil {
			return clierr.New(worktreeapi.CodeRegistryUnreadable, "%v", err).Wrap(err)
		}
		state, entry, err := ws.classify(ctx, name)
		if err != nil {
			return err
		}
		if fresh && (hasRec || state != stateAbsent) {
			collided = true
			return nil
		}
		res = &AcquireResult{Name: name, Path: ws.checkoutPath(name), Repository: ws.root, Warnings: []Diagnostic{}}
		switch state {
		case stateConflict:
			return ws.conflictError(name)
		case stateCheckedOut:
			res.Reused = true
			res.Branch, res.Head, res.Detached = gitx.ShortBranch(entry.Branch), entry.Head, entry.Branch == ""
		case stateStaleRegistration:
			// The directory was deleted by hand; drop git's leftover entry
			// for it (nothing else) so the checkout can be made again.
			if err := ws.git.RemoveWorktree(ctx, ws.root, res.Path, false); err != nil {
				return clierr.New(worktreeapi.CodeGitFailed, "clear git's stale registration of %s: %v", res.Path, err).
					WithDetails(map[string]any{"name": name, "path": res.Path}).Wrap(err)
			}
			fallthrough
		case stateAbsent:
			c, err := m.createCheckout(ctx, ws, name, refs, res)
			if c {
				collided = true
				return nil
			}
			if err != nil {
				return err
			}
		}
		return m.register(ws, name, rec, hasRec, req, owner, res)
	})
	var lte *registry.LockTimeoutError
	if errors.As(err, &lte) {
		return nil, false, clierr.New(worktreeapi.CodeLockTimeout, "%v", lte).WithDetails(map[string]any{"name": name, "lock": lte.Path})
	}
	return res, collided, err
}

// createCheckout makes the checkout at res.Path: from the existing branch
// stratos/<name> if there is one, else on a new branch from the start point.
// It reports collided=true when a fresh name turned out to be taken by a
// concurrent creator.
func (m *Manager) createCheckout(ctx context.Context, ws *workspace, name string, refs map[string]gitx.Ref, res *AcquireResult) (collided bool, err error) {
	branch := BranchPrefix + name
	branchRef := "refs/heads/" + branch
	// Only a fresh name comes with the ref listing; a named acquire holds
	// its name's lock, so a failed add is a failure, never a collision.
	fresh := refs != nil
	if refs == nil {
		if refs, err = ws.git.Refs(ctx, ws.root, branchRef, originHeadRef); err != nil {
			return false, clierr.New(worktreeapi.CodeGitFailed, "%v", err).Wrap(err)
		}
	}
	if existing, ok := refs[branchRef]; ok {
		if err := ws.git.AddExistingBranch(ctx, ws.root, res.Path, branch); err != nil {
			return false, clierr.New(worktreeapi.CodeWorktreeAddFailed, "check out existing branch %s at %s: %v", branch, res.Path, err).
				WithDetails(map[string]any{"name": name, "branch": branch}).Wrap(err)
		}
		res.Created, res.Branch, res.Head, res.StartPoint = true, branch, existing.Commit, branchRef
		return false, nil
	}
	start, label, warn, err := startPoint(ctx, ws, refs)
	if err != nil {
		return false, err
	}
	if err := ws.git.AddNewBranch(ctx, ws.root, res.Path, branch, start); err != nil {
		// A concurrent creator may have taken the branch between the ref
		// listing and now: for a fresh name that is a collision, not a failure.
		// The listing matches prefixes too (stratos/<name>/x is listed for
		// stratos/<name>, and makes the add fail), so only the branch itself
		// counts.
		if fresh {
			if again, lerr := ws.git.Refs(ctx, ws.root, branchRef); lerr == nil {
				if _, taken := again[branchRef]; taken {
					return true, nil
				}
			}
		}
		return false, clierr.New(worktreeapi.CodeWorktreeAddFailed, "create branch %s at %s: %v", branch, res.Path, err).
			WithDetails(map[string]any{"name": name, "branch": branch}).Wrap(err)
	}
	if warn != nil {
		res.Warnings = append(res.Warnings, *warn)
	}
	res.Created, res.BranchNew, res.Branch, res.Head, res.StartPoint = true, true, branch, start, label
	return false, nil
}

// startPoint picks where a new branch starts: the locally cached default
// branch of origin (never fetched), else the local HEAD with a warning.
// Uncommitted changes are never carried over: a branch starts at a commit.
func startPoint(ctx context.Context, ws *workspace, refs map[string]gitx.Ref) (commit, label string, warn *Diagnostic, err error) {
	if r, ok := refs[originHeadRef]; ok && r.Commit != "" {
		label = r.Name
		if r.Target != "" {
			label = r.Target
		}
		return r.Commit, label, nil, nil
	}
	head, err := ws.current(ctx)
	if err != nil {
		return "", "", nil, clierr.New(worktreeapi.CodeGitFailed, "%v", err).Wrap(err)
	}
	if head.Head == "" {
		return "", "", nil, clierr.New(worktreeapi.CodeNoCommits, "%s has no commit to start a branch from (HEAD is unborn)", head.Path).
			WithDetails(map[string]any{"repository": ws.root})
	}
	warn = &Diagnostic{
		Code: worktreeapi.DiagOriginHeadUnavailable,
		Message: fmt.Sprintf("%s is not available (no origin remote, or its default branch is not cached: `git remote set-head origin --auto`); the new branch starts from local HEAD %s of %s",
			originHeadRef, short(head.Head), head.Path),
	}
	return head.Head, "HEAD", warn, nil
}

// register writes the record: owner added, protection set by cleanup=false
// (never cleared here), branch at initialization for a new checkout.
func (m *Manager) register(ws *workspace, name string, rec *registry.Record, hasRec bool, req AcquireRequest, owner *registry.Owner, res *AcquireResult) error {
	changed, durable := !hasRec || res.Created, false
	if !hasRec {
		rec = &registry.Record{Name: name, CreatedAt: now()}
	}
	if res.Created {
		rec.Branch = res.Branch
	}
	if !req.Cleanup && !rec.Protected {
		rec.Protected, changed, durable = true, true, true
		if owner != nil {
			rec.ProtectedBy = owner.ID
		}
	}
	if owner != nil {
		rec.AddOwner(*owner)
		res.Owner, changed = owner.ID, true
	}
	res.Protected = rec.Protected
	if !changed {
		return nil
	}
	if err := ws.store.Save(rec, durable); err != nil {
		return clierr.New(worktreeapi.CodeRegistryUnwritable, "%v", err).Wrap(err)
	}
	return nil
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
