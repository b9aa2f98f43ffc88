package repository

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// Request is what the submitter knows of the run's repository.
type Request struct {
	// Dir is the submitting directory.
	Dir string
	// Remote is --repo ("": the checkout's origin).
	Remote string
	// Worktrees says the workflow uses worktrees: it then needs a remote.
	Worktrees bool
}

// Describe names the run's repository for its workers: the git work tree
// holding req.Dir, its HEAD, and the remote (req.Remote, else origin), which
// must answer. nil when there is nothing to name and nothing needs it (not
// in a repository, or no origin, and no worktrees). warn receives what the
// submitter should know (uncommitted changes stay on this machine).
func Describe(ctx context.Context, req Request, warn func(string)) (*engine.Repository, error) {
	dir, err := filepath.EvalSymlinks(req.Dir)
	if err != nil {
		dir = req.Dir
	}
	root, err := git(ctx, localWait, dir, "find the git repository of "+dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, refuse(req, "%s is not in a git repository", dir)
	}
	commit, err := git(ctx, localWait, root, "read HEAD of "+root, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return nil, refuse(req, "the git repository %s has no commit", root)
	}
	remote := req.Remote
	if remote == "" {
		if remote, err = git(ctx, localWait, root, "read the URL of origin", "remote", "get-url", "origin"); err != nil || remote == "" {
			return nil, refuse(req, "the git repository %s has no remote origin", root)
		}
	}
	if err := CheckURL(remote); err != nil {
		return nil, err
	}
	if _, err := git(ctx, probeWait, root, "ask the remote "+remote, "ls-remote", remote, "HEAD"); err != nil {
		if req.Remote == "" && !req.Worktrees {
			warn("the run's workers need its directory at the same path: " + err.Error())
			return nil, nil
		}
		return nil, clierr.Usage(temporalapi.CodeRepositoryRemote, "the run's repository on other machines: %v", err)
	}
	sub, err := filepath.Rel(root, dir)
	if err != nil || strings.HasPrefix(sub, "..") {
		sub = "."
	}
	if changed, _ := git(ctx, localWait, root, "read the status of "+root, "status", "--porcelain"); changed != "" {
		warn("the run's workers on other machines check out commit " + commit + " from " + remote + ": uncommitted changes in " + root + " stay on this machine")
	}
	return &engine.Repository{Remote: remote, Commit: commit, Root: asGiven(req.Dir, sub, root), Subdir: filepath.ToSlash(sub)}, nil
}

// asGiven is the repository's top as the submitting directory names it
// (through a symbolic link, when it does), which is how the workflow
// code's paths name it too; git's own (resolved) when they differ
// otherwise.
func asGiven(dir, sub, root string) string {
	dir = filepath.Clean(dir)
	if sub == "." {
		return dir
	}
	if top, ok := strings.CutSuffix(dir, string(filepath.Separator)+sub); ok {
		return top
	}
	return root
}

// refuse is a run that cannot name its repository: refused when it must
// (--repo, or worktrees), else nothing to name (nil, nil).
func refuse(req Request, format string, args ...any) error {
	if req.Remote == "" && !req.Worktrees {
		return nil
	}
	if req.Remote != "" {
		return clierr.Usage(temporalapi.CodeRepositoryRemote,
			"--repo %s: workers check the submitting checkout's HEAD out from it, but "+format, append([]any{req.Remote}, args...)...)
	}
	return clierr.Usage(temporalapi.CodeRepositoryRemote,
		"the workflow uses worktrees: its agents on other machines get the repository from a git remote, but "+format+" (--repo URL names one)", args...)
}

// CheckURL refuses a remote URL that carries a credential: it travels in
// the run's Temporal payloads. A password in any URL is one, and so is
// any user name in an http(s) URL, where tokens go; an SSH user is not.
func CheckURL(remote string) error {
	u, err := url.Parse(remote)
	if err != nil || u.Scheme == "" || u.User == nil {
		return nil // a path, or scp-like user@host:path (SSH)
	}
	_, hasPassword := u.User.Password()
	web := u.Scheme == "http" || u.Scheme == "https"
	if !hasPassword && !(web && u.User.Username() != "") {
		return nil
	}
	u.User = nil
	return clierr.Usage(temporalapi.CodeRepositoryCredentials,
		"the remote URL %s carries a credential in its user part, which would travel in the run's Temporal payloads: give the URL without it and let each worker's git authenticate (a credential helper, an SSH key)", u.String())
}
