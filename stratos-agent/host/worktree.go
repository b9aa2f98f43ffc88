package host

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"sync"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/shared/toolcall"
)

// worktreeTool manages the worktrees. The host executes it with --json and
// never imports it: modules do not import each other.
const worktreeTool = worktreeapi.Tool

// worktrees gives agents with worktree.enabled their managed checkout. One
// per host: every acquire registers a use by the top-level execution (the
// owner) held by this host process (the owner process), so agents of the
// execution and its children that share a named worktree hold one use, and a
// host that dies without releasing leaves a stale owner that the next run's
// reconcile drops. Each repository is reconciled once, before its first
// acquire; every worktree acquired is released once, when the host shuts
// down after closing its sessions.
type worktrees struct {
	owner  string // the top-level execution ID
	log    hclog.Logger
	stderr io.Writer // where the tool's own diagnostics go
	record func(eventapi.Event)

	mu sync.Mutex
	// reconciles is keyed by the top directory of the checkout that holds a
	// working directory (see checkoutTop), so agents working anywhere in
	// one repository wait for one reconcile.
	reconciles map[string]*reconcileOnce
	held       map[string]*heldWorktree // by repository + "\x00" + name
	// byAgent remembers each agent's worktree: when preparing the agent
	// fails after the acquire, the next execute prepares it again and must
	// get the same checkout, not a second fresh one.
	byAgent  map[string]*worktreeapi.AcquireResult
	released bool
}

type reconcileOnce struct {
	done chan struct{}
	err  error // the tool's error, set before done closes
}

// heldWorktree is one worktree this host registered a use of.
type heldWorktree struct {
	repository, name, path string
	agents                 []string // the agent IDs that acquired it
}

func newWorktrees(owner string, log hclog.Logger, stderr io.Writer, record func(eventapi.Event)) *worktrees {
	return &worktrees{owner: owner, log: log, stderr: stderr, record: record,
		reconciles: map[string]*reconcileOnce{}, held: map[string]*heldWorktree{}, byAgent: map[string]*worktreeapi.AcquireResult{}}
}

// run executes the tool with --json and decodes its result into out; the
// tool's diagnostics go to stderr.
func (w *worktrees) run(ctx context.Context, stderr io.Writer, out any, args ...string) error {
	return toolcall.Run(ctx, toolcall.Call{Tool: worktreeTool, Args: append(args, "--json"), Stderr: stderr}, out)
}

// acquire hands the agent s its worktree in the repository containing dir
// (the resolved workingDirectory). A failure is the agent's catchable
// error: configuration when the setting or the directory is at fault (a
// conflicting path, not a repository, an invalid name), initialization
// otherwise.
func (w *worktrees) acquire(ctx context.Context, s *session, dir string, wt agentproto.Worktree) (*worktreeapi.AcquireResult, error) {
	// Cancelling the execute must not kill the tool halfway: a use it
	// registered but never reported could not be released.
	ctx = context.WithoutCancel(ctx)
	w.mu.Lock()
	prev := w.byAgent[s.id]
	w.mu.Unlock()
	if prev != nil {
		return prev, nil
	}
	if err := w.reconcile(ctx, s, dir); err != nil {
		return nil, err
	}
	args := []string{"acquire", "--repo", dir, "--owner", w.owner, "--owner-pid", strconv.Itoa(os.Getpid())}
	if wt.Name != nil {
		args = append(args, "--name", *wt.Name)
	}
	if wt.Cleanup != nil && !*wt.Cleanup {
		args = append(args, "--cleanup=false")
	}
	var res worktreeapi.AcquireResult
	if err := w.run(ctx, w.stderr, &res, args...); err != nil {
		return nil, worktreeError(s.name, dir, err)
	}
	if !w.hold(s.id, &res) {
		// The host shut down while the tool ran: give the use back now.
		w.release(ctx, &heldWorktree{repository: res.Repository, name: res.Name, path: res.Path, agents: []string{s.id}})
		return nil, contextClosed(s.name)
	}
	s.event(&eventapi.WorktreeAcquired{Name: res.Name, Path: res.Path, Branch: res.Branch, Repository: res.Repository,
		Created: res.Created, Reused: res.Reused, BranchNew: res.BranchNew, Protected: res.Protected, Warnings: nonNil(res.Warnings)})
	return &res, nil
}

// hold records that agent holds res, for its next prepare and for the
// release at shutdown; false when the worktrees were released already.
func (w *worktrees) hold(agent string, res *worktreeapi.AcquireResult) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.released {
		return false
	}
	w.byAgent[agent] = res
	key := res.Repository + "\x00" + res.Name
	if h := w.held[key]; h != nil {
		h.agents = append(h.agents, agent)
	} else {
		w.held[key] = &heldWorktree{repository: res.Repository, name: res.Name, path: res.Path, agents: []string{agent}}
	}
	if _, ok := w.reconciles[res.Path]; !ok {
		w.reconciles[res.Path] = finishedReconcile() // the checkout is in a reconciled repository
	}
	return true
}

// reconcile runs stratos-worktree reconcile for the repository containing
// dir unless this host did already, so that worktrees of runs whose host
// died (SIGKILL) are cleaned up before this run adds its own. Reconcile is
// best effort: only a directory that is no usable repository fails the
// agent (acquire would fail the same way); other failures are warnings.
func (w *worktrees) reconcile(ctx context.Context, s *session, dir string) error {
	top := checkoutTop(dir)
	w.mu.Lock()
	r, seen := w.reconciles[top]
	if !seen {
		r = &reconcileOnce{done: make(chan struct{})}
		w.reconciles[top] = r
	}
	w.mu.Unlock()
	if seen {
		<-r.done
		return r.errFor(s.name, dir)
	}
	r.err = w.runReconcile(ctx, s, dir, top, r)
	close(r.done)
	return r.errFor(s.name, dir)
}

// runReconcile reconciles the repository containing dir (whose checkout
// top is top) on behalf of r and returns the error that fails the agent.
func (w *worktrees) runReconcile(ctx context.Context, s *session, dir, top string, r *reconcileOnce) error {
	var raw json.RawMessage
	// The tool would log every dirty checkout earlier runs preserved, on
	// every run; logReconciled says what concerns this one.
	err := w.run(ctx, io.Discard, &raw, "reconcile", "--repo", dir)
	var ce *clierr.Error
	if errors.As(err, &ce) && ce.Exit == 2 {
		w.mu.Lock()
		delete(w.reconciles, top) // the next execute tries again
		w.mu.Unlock()
		return err
	}
	if err != nil {
		w.log.Warn("reconciling worktrees failed; acquiring anyway", "repository", dir, "error", err)
		s.event(&eventapi.WorktreeReconciled{Status: eventapi.StatusFailed, Error: eventError(err), WorkingDirectory: dir})
		return nil
	}
	var res worktreeapi.ReconcileResult
	_ = json.Unmarshal(raw, &res)
	w.logReconciled(res)
	s.event(&eventapi.WorktreeReconciled{ReconcileResult: &res})
	w.mu.Lock()
	if _, ok := w.reconciles[res.Repository]; !ok && res.Repository != "" {
		w.reconciles[res.Repository] = r
	}
	w.mu.Unlock()
	return nil
}

// logReconciled logs the owners reconcile dropped (runs whose host died)
// and its warnings, except the dirty checkouts earlier runs preserved:
// those were reported when they were preserved, and stay visible in
// stratos worktree list and in this run's worktree.reconciled event.
func (w *worktrees) logReconciled(res worktreeapi.ReconcileResult) {
	for _, o := range res.StaleOwnersRemoved {
		w.log.Info("dropped the worktree use of a run that is gone", "worktree", o.Name, "run", o.ID, "pid", o.PID, "repository", res.Repository)
	}
	for _, d := range res.Warnings {
		if d.Code == worktreeapi.DiagDirty {
			w.log.Debug(d.Message, "code", d.Code)
			continue
		}
		w.log.Warn(d.Message, "code", d.Code)
	}
}

// errFor is the reconcile's failure as the error of agent, or nil.
func (r *reconcileOnce) errFor(agent, dir string) error {
	if r.err == nil {
		return nil
	}
	return worktreeError(agent, dir, r.err)
}

func finishedReconcile() *reconcileOnce {
	r := &reconcileOnce{done: make(chan struct{})}
	close(r.done)
	return r
}

// releaseAll releases every worktree acquired, concurrently (each has its
// own lock), once: the top-level execution and all its descendants have
// finished and every session is closed. Problems are reported softly.
func (w *worktrees) releaseAll(ctx context.Context) {
	w.mu.Lock()
	if w.released {
		w.mu.Unlock()
		return
	}
	w.released = true
	keys := slices.Sorted(maps.Keys(w.held))
	held := make([]*heldWorktree, len(keys))
	for i, k := range keys {
		held[i] = w.held[k]
	}
	w.mu.Unlock()
	var wg sync.WaitGroup
	for _, h := range held {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.release(ctx, h)
		}()
	}
	wg.Wait()
}

// release drops this execution's use of h and records what cleanup decided
// (worktree.released). The tool logs its warnings (a dirty checkout kept,
// a lock timeout) on stderr itself; a checkout kept without one (in use by
// another run, protected) gets an info line here.
func (w *worktrees) release(ctx context.Context, h *heldWorktree) {
	agents := append([]string(nil), h.agents...)
	sort.Strings(agents)
	d := &eventapi.WorktreeReleased{Status: eventapi.StatusReleased, Agents: agents}
	var res worktreeapi.ReleaseResult
	if err := w.run(ctx, w.stderr, &res, "release", "--repo", h.repository, "--name", h.name, "--owner", w.owner); err != nil {
		w.log.Warn("worktree not released; a later run's reconcile drops this host's use", "worktree", h.name, "repository", h.repository, "error", err)
		d.Status, d.Error = eventapi.StatusFailed, eventError(err)
		d.ReleaseResult = &worktreeapi.ReleaseResult{Repository: h.repository, Settlement: worktreeapi.Settlement{Name: h.name, Path: h.path}}
	} else {
		if res.Outcome == worktreeapi.OutcomeKept && len(res.Warnings) == 0 {
			w.log.Info("worktree kept", "worktree", h.name, "path", res.Path, "reason", res.Reason)
		}
		d.ReleaseResult = &res
	}
	e := eventapi.New(d)
	e.ExecutionID = w.owner
	w.record(e)
}

// checkoutTop is the directory of the checkout holding dir: the nearest
// ancestor (dir included) with a .git entry, or dir itself when there is
// none. It only keys the reconcile bookkeeping, so a guess that is wrong in
// an unusual layout costs one more reconcile, never a missed one for the
// usual layouts.
func checkoutTop(dir string) string {
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return filepath.Clean(dir)
		}
		d = parent
	}
}

// worktreeError turns a failed stratos-worktree call into the agent's
// error. Invalid input (exit 2: not a repository, an invalid name) and a
// conflicting path are the configuration's fault; anything else (a lock
// timeout, git failing, the tool missing) is an initialization failure,
// which the next execute retries.
func worktreeError(agent, dir string, err error) error {
	code := agentproto.CodeInitialization
	details := map[string]any{"workingDirectory": dir}
	msg := err.Error()
	var ce *clierr.Error
	if errors.As(err, &ce) {
		if ce.Exit == 2 || ce.Code == worktreeapi.CodePathConflict {
			code = agentproto.CodeConfiguration
		}
		details["worktreeError"] = ce.Code
		if len(ce.Details) > 0 {
			details["worktree"] = ce.Details
		}
		msg = ce.Message
	}
	return agentproto.Errorf(code, "agent %q: cannot acquire its worktree: %s (the resolved workingDirectory %s names the repository)", agent, msg, dir).
		WithDetails(details).Wrap(err)
}

func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}
