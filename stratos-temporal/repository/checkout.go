package repository

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// agentBranches are the branches agents' worktrees use (stratos/<name>):
// a checkout starts with the remote's, so an agent continuing a named
// worktree another worker pushed continues its work.
const agentBranches = "refs/heads/stratos/*"

// Checkouts are a worker's copies of runs' repositories: a bare cache per
// remote (Dir/git/<hash>.git) and a checkout per run (Dir/checkouts/<run>)
// that borrows the cache's objects. The code and the agents of one run on
// this worker share its checkout.
type Checkouts struct {
	dir string

	mu     sync.Mutex
	byRun  map[string]*checkout
	remote map[string]*sync.Mutex // one fetch into a cache at a time
}

type checkout struct {
	done chan struct{}
	dir  string
	err  error
	// fresh: made anew, from the remote's fetch of a moment before (make).
	fresh bool
}

// NewCheckouts keeps checkouts under dir (the worker's own directory).
func NewCheckouts(dir string) *Checkouts {
	return &Checkouts{dir: dir, byRun: map[string]*checkout{}, remote: map[string]*sync.Mutex{}}
}

// Get returns the run's checkout, making it on first use: the remote's
// commit, with HEAD detached at it, and the remote's agent branches.
func (cs *Checkouts) Get(ctx context.Context, runID string, repo engine.Repository) (string, error) {
	dir, _, err := cs.Made(ctx, runID, repo)
	return dir, err
}

// Made is Get, and says whether this call made the checkout anew (fresh):
// its agent branches are then the remote's of a moment ago, and the
// caller's execute need not fetch them again (Refresh). Only the call
// that started making it is told so: another, waiting meanwhile or later,
// may come long after the fetch. A checkout reused from before the worker
// restarted is not fresh.
func (cs *Checkouts) Made(ctx context.Context, runID string, repo engine.Repository) (dir string, fresh bool, err error) {
	cs.mu.Lock()
	c := cs.byRun[runID]
	maker := c == nil
	if maker {
		c = &checkout{done: make(chan struct{}), dir: filepath.Join(cs.dir, "checkouts", safeName(runID))}
		cs.byRun[runID] = c
		go func() {
			defer close(c.done)
			c.fresh, c.err = cs.make(context.WithoutCancel(ctx), c.dir, repo)
		}()
	}
	cs.mu.Unlock()
	select {
	case <-c.done:
	case <-ctx.Done():
		return "", false, ctx.Err()
	}
	if c.err != nil {
		cs.mu.Lock()
		delete(cs.byRun, runID)
		cs.mu.Unlock()
		return "", false, c.err
	}
	return c.dir, maker && c.fresh, nil
}

// make makes the run's checkout in dir, and says whether it made it anew
// (fresh). One left by an attempt of this worker before (it restarted) is
// reused when it has the commit.
func (cs *Checkouts) make(ctx context.Context, dir string, repo engine.Repository) (fresh bool, err error) {
	cache, err := cs.fetch(ctx, repo)
	if err != nil {
		return false, err
	}
	if head, err := git(ctx, localWait, dir, "read HEAD of "+dir, "rev-parse", "--verify", "HEAD"); err == nil && head != "" {
		return false, nil
	}
	_ = os.RemoveAll(dir)
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return false, err
	}
	if _, err := git(ctx, localWait, "", "make the checkout "+dir, "init", "--quiet", dir); err != nil {
		return false, err
	}
	gitDir, err := git(ctx, localWait, dir, "find the git directory of "+dir, "rev-parse", "--absolute-git-dir")
	if err != nil {
		return false, err
	}
	// The checkout borrows the cache's objects (what clone --shared does):
	// a run's checkout costs its files, not another copy of the history.
	alternates := filepath.Join(gitDir, "objects", "info", "alternates")
	if err := os.WriteFile(alternates, []byte(filepath.Join(cache, "objects")+"\n"), 0o600); err != nil {
		return false, err
	}
	steps := [][]string{
		{"remote", "add", "origin", repo.Remote},
		{"fetch", "--quiet", "--no-tags", cache, "+" + agentBranches + ":" + agentBranches},
		{"checkout", "--quiet", "--detach", repo.Commit},
	}
	for _, args := range steps {
		if _, err := git(ctx, localWait, dir, fmt.Sprintf("check out commit %s of %s in %s", repo.Commit, repo.Remote, dir), args...); err != nil {
			return false, err
		}
	}
	return true, nil
}

// fetch brings the run's commit and the agent branches of the remote into
// the remote's cache and returns the cache.
func (cs *Checkouts) fetch(ctx context.Context, repo engine.Repository) (string, error) {
	sum := sha256.Sum256([]byte(repo.Remote))
	cache := filepath.Join(cs.dir, "git", hex.EncodeToString(sum[:8])+".git")
	cs.mu.Lock()
	lock := cs.remote[cache]
	if lock == nil {
		lock = &sync.Mutex{}
		cs.remote[cache] = lock
	}
	cs.mu.Unlock()
	lock.Lock()
	defer lock.Unlock()
	if _, err := os.Stat(filepath.Join(cache, "HEAD")); err != nil {
		if _, err := git(ctx, localWait, "", "make the cache "+cache, "init", "--quiet", "--bare", cache); err != nil {
			return "", err
		}
	}
	// A ref keeps the commit from git's garbage collection while runs
	// borrow it.
	keep := "+" + repo.Commit + ":refs/commits/" + repo.Commit
	if _, err := git(ctx, networkWait, cache, fmt.Sprintf("fetch commit %s from %s", repo.Commit, repo.Remote),
		"fetch", "--quiet", "--no-tags", repo.Remote, keep, "+"+agentBranches+":"+agentBranches); err != nil {
		return "", err
	}
	return cache, nil
}

// Of is the run's checkout made here since the worker started (false:
// none was, or making it failed).
func (cs *Checkouts) Of(runID string) (string, bool) {
	cs.mu.Lock()
	c := cs.byRun[runID]
	cs.mu.Unlock()
	if c == nil {
		return "", false
	}
	<-c.done
	return c.dir, c.err == nil
}

// Left are the checkouts on disk, by run ID, whether this worker made them
// since it started or before (it stopped or died mid-run).
func (cs *Checkouts) Left() (map[string]string, error) {
	entries, err := os.ReadDir(filepath.Join(cs.dir, "checkouts"))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	left := map[string]string{}
	for _, e := range entries {
		if e.IsDir() {
			left[e.Name()] = filepath.Join(cs.dir, "checkouts", e.Name())
		}
	}
	return left, nil
}

// Remove removes the run's checkout in dir (its worktrees with it; one
// Of or Left named) and forgets it; the cache stays for the remote's next
// run.
func (cs *Checkouts) Remove(runID, dir string) error {
	cs.mu.Lock()
	c := cs.byRun[runID]
	delete(cs.byRun, runID)
	cs.mu.Unlock()
	if c != nil {
		<-c.done
	}
	return os.RemoveAll(dir)
}

// safeName is a run ID as one path element.
func safeName(id string) string {
	return strings.NewReplacer("/", "_", "\\", "_", "..", "_").Replace(id)
}
