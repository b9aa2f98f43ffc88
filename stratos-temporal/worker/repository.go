package worker

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
	"github.com/stratoscli/stratos/stratos-temporal/repository"
)

// repos are the runs' repositories on this worker: checkouts of the
// runs' remotes for runs whose directory this worker does not have.
type repos struct {
	checkouts *repository.Checkouts
	stderr    io.Writer

	mu sync.Mutex
	// byRun caches each run's repository as its workflow names it (nil:
	// it names none).
	byRun map[string]*engine.Repository
	// running are the runs whose code runs in this worker's checkout now.
	running map[string]bool
	// told are the checkouts left on disk that the worker said it keeps,
	// so that it says so once.
	told map[string]bool
}

func newRepos(dir string, stderr io.Writer) *repos {
	return &repos{checkouts: repository.NewCheckouts(dir), stderr: stderr, byRun: map[string]*engine.Repository{},
		running: map[string]bool{}, told: map[string]bool{}}
}

// hasDir reports whether dir is a directory on this worker.
func hasDir(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}

// checkout returns the run's checkout on this worker, beating the
// activity's heart while git fetches.
func (r *repos) checkout(ctx context.Context, runID string, repo engine.Repository) (string, error) {
	dir, _, err := r.made(ctx, runID, repo)
	return dir, err
}

// made is checkout, and says whether this call made it anew
// (repository.Checkouts.Made).
func (r *repos) made(ctx context.Context, runID string, repo engine.Repository) (dir string, fresh bool, err error) {
	err = whileBeating(ctx, func() (err error) {
		dir, fresh, err = r.checkouts.Made(ctx, runID, repo)
		return err
	})
	return dir, fresh, err
}

// whileBeating runs fn, beating the activity's heart until it returns:
// git's fetches and pushes may take longer than a heartbeat timeout.
func whileBeating(ctx context.Context, fn func() error) error {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-beat.C:
			activity.RecordHeartbeat(ctx)
		}
	}
}

// of is the run's repository as its workflow names it (asked once per run).
func (r *repos) of(ctx context.Context, runID string) (*engine.Repository, error) {
	r.mu.Lock()
	repo, known := r.byRun[runID]
	r.mu.Unlock()
	if known {
		return repo, nil
	}
	// The run's workflow answers on a code worker: after that worker died,
	// once another took the workflow over.
	err := whileBeating(ctx, func() error {
		res, err := activity.GetClient(ctx).QueryWorkflow(ctx, runID, "", engine.QueryRepository)
		if err != nil {
			return fmt.Errorf("ask run %s for its repository: %w", runID, err)
		}
		if err := res.Get(&repo); err != nil {
			return fmt.Errorf("decode run %s's repository: %w", runID, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.byRun[runID] = repo
	r.mu.Unlock()
	return repo, nil
}

// codeCheckout returns the run's checkout for its code, which runs there
// until codeEnded.
func (r *repos) codeCheckout(ctx context.Context, runID string, repo engine.Repository) (string, error) {
	r.mu.Lock()
	r.running[runID] = true
	r.mu.Unlock()
	return r.checkout(ctx, runID, repo)
}

// closeRun ends what this worker keeps of the run once its agent host
// closed: the run's checkout goes, unless that would lose work (settle):
// every execute's work in a worktree was pushed, but an agent working
// outside one, or the run's code, may have left some.
func (r *repos) closeRun(ctx context.Context, runID string) error {
	r.mu.Lock()
	delete(r.byRun, runID)
	r.mu.Unlock()
	return r.settle(ctx, runID)
}

// codeEnded ends what this worker keeps of the run once its code ended
// here, unless an agent host of the run is here too: its close (closeRun)
// does it then, after the host released the worktrees it made.
func (r *repos) codeEnded(ctx context.Context, runID string, hostHere bool) error {
	if hostHere {
		r.mu.Lock()
		delete(r.running, runID)
		r.mu.Unlock()
		return nil
	}
	r.mu.Lock()
	delete(r.byRun, runID)
	delete(r.running, runID)
	r.mu.Unlock()
	return r.settle(ctx, runID)
}

// settle settles the run's checkout made here, if one was (settleDir).
func (r *repos) settle(ctx context.Context, runID string) error {
	dir, ok := r.checkouts.Of(runID)
	if !ok {
		return nil
	}
	return r.settleDir(ctx, runID, dir)
}

// settleDir removes the run's checkout in dir once nothing would be lost
// with it (repository.Unsettled); else it stays, and the worker says where
// and why, once. An error keeps it for the next sweep to ask again.
func (r *repos) settleDir(ctx context.Context, runID, dir string) error {
	why, err := unsettled(ctx, dir)
	if err != nil {
		return fmt.Errorf("keeps its checkout %s for now: %w", dir, err)
	}
	if why == "" {
		return r.checkouts.Remove(runID, dir)
	}
	fmt.Fprintf(r.stderr, "stratos worker: run %s: keeps its checkout %s: %s\n", runID, dir, why)
	r.mu.Lock()
	r.told[runID] = true
	r.mu.Unlock()
	return nil
}

// sweep settles the checkouts left on disk of runs that ended (settleDir):
// those of a run whose close never reached this worker, and those a
// worker that stopped or died mid-run left before it started again.
// Checkouts of runs this worker works for now (busy), and those it said it
// keeps, are left alone.
func (r *repos) sweep(ctx context.Context, ended runEnded, busy func(runID string) bool) {
	left, err := r.checkouts.Left()
	if err != nil {
		fmt.Fprintf(r.stderr, "stratos worker: list the runs' checkouts: %v\n", err)
		return
	}
	for _, runID := range slices.Sorted(maps.Keys(left)) {
		r.mu.Lock()
		skip := r.running[runID] || r.told[runID]
		r.mu.Unlock()
		if skip || busy(runID) {
			continue
		}
		if done, err := ended(ctx, runID); err != nil || !done {
			continue
		}
		if err := r.settleDir(ctx, runID, left[runID]); err != nil {
			fmt.Fprintf(r.stderr, "stratos worker: run %s: %v\n", runID, err)
		}
	}
}

// unsettled is repository.Unsettled of the checkout in dir, with the
// remote it was made from.
func unsettled(ctx context.Context, dir string) (string, error) {
	remote, err := repository.RemoteOf(ctx, dir)
	if err != nil {
		return "", err
	}
	return repository.Unsettled(ctx, dir, remote)
}

// localize gives an execute the run's checkout on this worker when the
// run names a repository and this worker does not have the submitter's
// directory: its invocation directory and workflow directory, which name
// places in the code worker's repository, are rebased onto this worker's
// checkout. Params that need nothing come back unchanged; so do those of
// a run that names no repository (the host then reports the directory
// missing, as before).
func (r *repos) localize(ctx context.Context, runID string, params json.RawMessage) (json.RawMessage, error) {
	var p agentproto.ExecuteParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	if p.Cwd == "" {
		return params, nil
	}
	repo, err := r.of(ctx, runID)
	if err != nil {
		// Without an answer, a directory this worker has is used, as
		// before runs named repositories.
		if hasDir(p.Cwd) {
			return params, nil
		}
		return nil, err
	}
	// The submitter's directory, where this worker has it, is the run's
	// (one machine, or a shared file system); a directory elsewhere is the
	// code worker's checkout, never this worker's to use (on one machine,
	// another worker's files).
	if repo == nil || (hasDir(p.Cwd) && within(p.Cwd, repo.Root)) {
		return params, nil
	}
	dir, fresh, err := r.made(ctx, runID, *repo)
	if err != nil {
		return nil, err
	}
	// Without the agent branches others pushed since, the agent would
	// start over from older work; a remote that does not answer now is a
	// warning: the push after the execute will say what came of it. A
	// checkout this execute made has the remote's branches of a moment
	// ago.
	if !fresh {
		if err := whileBeating(ctx, func() error { return repository.Refresh(ctx, dir, repo.Remote) }); err != nil {
			fmt.Fprintf(r.stderr, "stratos worker: run %s: %v\n", runID, err)
		}
	}
	// The code ran in its repository at Subdir: what comes before it is
	// that repository's top on the code's worker.
	codeTop := strings.TrimSuffix(filepath.Clean(p.Cwd), string(filepath.Separator)+filepath.FromSlash(repo.Subdir))
	if repo.Subdir == "." {
		codeTop = filepath.Clean(p.Cwd)
	}
	p.Cwd = rebase(p.Cwd, codeTop, dir)
	p.Workflow.Dir = rebase(p.Workflow.Dir, codeTop, dir)
	return json.Marshal(p)
}

// rebase moves path from under top to under dir; a path elsewhere stays.
func rebase(path, top, dir string) string {
	if !within(path, top) {
		return path
	}
	rel, _ := filepath.Rel(top, path)
	return filepath.Join(dir, rel)
}

// within reports whether path is top or under it.
func within(path, top string) bool {
	rel, err := filepath.Rel(top, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
