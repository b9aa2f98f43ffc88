package worker

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
	"strconv"
	"syscall"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
	"github.com/stratoscli/stratos/stratos-temporal/proxy"
)

// maxStderr bounds the console output a run's result carries back (a
// Temporal payload); the run record on the worker keeps all of it.
const maxStderr = 1 << 20

// code runs the workflow code of runs: stratos run on this worker, with
// this program as its agent host.
type code struct {
	stratosRun string
	self       string // stratos-temporal: `serve` is the proxy
	dir        string // the worker's own files (replay journals)
	runs       string // the run records of the code's stratos run (~/.stratos/runs)
	worker     string
	stderr     io.Writer
	repos      *repos
	hosts      *hosts // the agent hosts of this worker, if it takes agents
}

// Run runs stratos run with the request's arguments in its directory. A
// retried attempt (the worker of the one before died) replays the journal
// the run's workflow kept, so finished work is not done again.
func (c *code) Run(ctx context.Context, req engine.RunRequest) (engine.RunResult, error) {
	info := activity.GetInfo(ctx)
	runID := info.WorkflowExecution.ID
	cwd, publish, err := c.workDir(ctx, runID, req)
	if err != nil {
		return engine.RunResult{}, err
	}
	rec, err := newCodeRecord(c.runs, time.Now())
	if err != nil {
		return engine.RunResult{}, fmt.Errorf("name the run's record: %w", err)
	}
	args := append([]string{"run"}, req.Args...)
	args = append(args, "--execution-id", rec.id)
	replay := ""
	if info.Attempt > 1 || req.ResumeOf != "" {
		if replay, err = c.replayJournal(ctx, runID, req.ResumeOf, int(info.Attempt)); err != nil {
			return engine.RunResult{}, err
		}
		if replay != "" {
			args = append(args, "--replay-journal", replay)
		}
		if info.Attempt > 1 {
			fmt.Fprintf(c.stderr, "stratos worker %s: run %s: attempt %d of its code replays what finished before\n", c.worker, runID, info.Attempt)
		} else {
			fmt.Fprintf(c.stderr, "stratos worker %s: run %s resumes run %s: its code replays what finished there\n", c.worker, runID, req.ResumeOf)
		}
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(c.stratosRun, args...)
	cmd.Dir = cwd
	cmd.Stdin = bytes.NewReader(req.Stdin)
	cmd.Stdout = &stdout
	live := &console{}
	cmd.Stderr = io.MultiWriter(&limited{w: &stderr, n: maxStderr}, live, c.stderr)
	cmd.Env = append(os.Environ(), "STRATOS_AGENT_BIN="+c.self, proxy.EnvRun+"="+runID, proxy.EnvQueue+"="+info.TaskQueue, proxy.EnvAgentQueue+"="+req.AgentQueue, proxy.EnvPublish+"="+publish)
	// When this worker dies, the code dies with it at once (its group,
	// node and agent host included): another worker takes the run over,
	// and a dying attempt must not cancel the agents it asked for, which
	// run on other workers and whose results the next attempt uses.
	proc, err := procgroup.Start(cmd, procgroup.Options{Watchdog: true})
	if err != nil {
		return engine.RunResult{}, fmt.Errorf("start %s: %w", c.stratosRun, err)
	}
	waitErr, lost := c.await(ctx, runID, proc, func() engine.Progress {
		p := live.progress(c.worker, int(info.Attempt))
		p.EventsTotal, p.EventsTail = rec.eventTail()
		return p
	})
	if replay != "" {
		c.passReplayed(ctx, runID, rec.dir)
	}
	if err := c.repos.codeEnded(context.WithoutCancel(ctx), runID, c.hosts.has(runID)); err != nil {
		fmt.Fprintf(c.stderr, "stratos worker %s: run %s: %v\n", c.worker, runID, err)
	}
	if lost != nil {
		return engine.RunResult{}, lost
	}
	code := 0
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	if code < 0 {
		var ee *exec.ExitError
		if !errors.As(waitErr, &ee) {
			return engine.RunResult{}, waitErr
		}
		code = 128 + int(syscall.SIGKILL)
	}
	res := engine.RunResult{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), ExitCode: code, Worker: c.worker, Attempt: int(info.Attempt),
		State: rec.state(code, c.worker)}
	res.Fit()
	return res, nil
}

// workDir is where the run's code runs on this worker: the submitting
// directory when this worker has it (one machine, or a shared file
// system), else the same place in this worker's checkout of the run's
// remote at its commit, and then that remote is where the work of agents
// beside the code goes (publish). Neither is a run this worker cannot
// take, and another attempt here would not change that.
func (c *code) workDir(ctx context.Context, runID string, req engine.RunRequest) (dir, publish string, err error) {
	if hasDir(req.Cwd) {
		return req.Cwd, "", nil
	}
	if req.Repository == nil {
		return "", "", temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("worker %s has no directory %s and the run names no git remote: a run's workers need its repository at the same path, or a remote (origin, or stratos run --repo URL)", c.worker, req.Cwd), temporalapi.CodeRepositoryMissing, nil)
	}
	repo := *req.Repository
	top, err := c.repos.codeCheckout(ctx, runID, repo)
	if err != nil {
		return "", "", temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("worker %s: check out the run's repository: %v", c.worker, err), temporalapi.CodeRepositoryMissing, err)
	}
	dir = filepath.Join(top, filepath.FromSlash(repo.Subdir))
	if !hasDir(dir) {
		return "", "", temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("worker %s: commit %s of %s has no directory %s (the submitting directory, %s)", c.worker, repo.Commit, repo.Remote, repo.Subdir, req.Cwd), temporalapi.CodeRepositoryMissing, nil)
	}
	return dir, repo.Remote, nil
}

// await waits for stratos run, beating the activity's heart with the
// console output so far, and stops it when the activity ends first. A
// cancelled run's code is interrupted, as Ctrl-C would, and cancels its
// agents. Any other end of the activity (its heartbeat timed out while this
// worker stalled or lost the server, the run closed, this worker stops)
// means Temporal gives the code to another worker, whose attempt attaches
// to the executes this one asked for: the code is killed, as if this
// worker had died, since an interrupted code would cancel them on its way
// out; lost is then why, and the attempt fails with it (a completion with
// the killed code's exit status would end the run).
func (c *code) await(ctx context.Context, runID string, proc *procgroup.Process, progress func() engine.Progress) (waitErr, lost error) {
	exited := make(chan error, 1)
	go func() { exited <- proc.Wait() }()
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	stopped := false
	for {
		select {
		case err := <-exited:
			return err, lost
		case <-beat.C:
			activity.RecordHeartbeat(ctx, progress())
		case <-ctx.Done():
			if stopped {
				continue
			}
			stopped = true
			cause := context.Cause(ctx)
			if runCancelled(cause) {
				_ = proc.Signal(syscall.SIGINT)
				continue
			}
			lost = fmt.Errorf("worker %s lost this attempt of the run's code (%w): it was killed, and its agents go on for the next attempt", c.worker, cause)
			fmt.Fprintf(c.stderr, "stratos worker %s: run %s: %v\n", c.worker, runID, lost)
			_ = proc.Signal(syscall.SIGKILL)
		}
	}
}

// runCancelled reports whether an activity's context ended (for cause)
// because its workflow asked to cancel it.
func runCancelled(cause error) bool {
	var cancelled *temporal.CanceledError
	return errors.As(cause, &cancelled)
}

// replayJournal writes the journal to replay to a file for stratos run
// --replay-journal ("" when it holds nothing to replay): on a retried
// attempt the journal the run's workflow kept, and for a run that resumes
// another (resumeOf) that run's journal, which its closed workflow still
// answers (this worker polls its task queue and replays its history to).
func (c *code) replayJournal(ctx context.Context, runID, resumeOf string, attempt int) (string, error) {
	var own, old []journalapi.Entry
	var err error
	if attempt > 1 {
		if own, err = queryJournal(ctx, runID); err != nil {
			return "", err
		}
	}
	if resumeOf != "" {
		if old, err = queryJournal(ctx, resumeOf); err != nil {
			return "", err
		}
	}
	entries := mergeJournals(own, old)
	if entries == nil {
		return "", nil
	}
	var buf bytes.Buffer
	for _, e := range entries {
		line, err := json.Marshal(e)
		if err != nil {
			return "", err
		}
		buf.Write(append(line, '\n'))
	}
	dir := filepath.Join(c.dir, "runs", runID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	file := filepath.Join(dir, "journal-attempt-"+strconv.Itoa(attempt)+".jsonl")
	return file, os.WriteFile(file, buf.Bytes(), 0o600)
}

// maxReplayedSignal bounds the entries one signal of passReplayed carries
// (a Temporal payload).
const maxReplayedSignal = 512 << 10

// passReplayed tells the run's workflow of the header and the replayed
// entries of the attempt's journal (in dir). The proxy passes the
// journal's lines on once the SDK initialized it, which a run whose every
// call was answered from the journal never does: without this, the
// workflow's journal would lack what the run replayed from the run it
// resumes, and could not be resumed in its turn. The workflow keeps the
// first header, and one entry of a place a replayed entry repeats. A
// signal that fails is said; a retried attempt replays the resumed run's
// journal again.
func (c *code) passReplayed(ctx context.Context, runID, dir string) {
	f, err := os.Open(filepath.Join(dir, journalapi.File))
	if err != nil {
		return // the run ended before its journal began
	}
	defer f.Close()
	j, _, err := journalapi.Read(f)
	if err != nil {
		fmt.Fprintf(c.stderr, "stratos worker %s: run %s: read the attempt's journal: %v\n", c.worker, runID, err)
		return
	}
	header := j.Header
	batch := []journalapi.Entry{{V: journalapi.Version, Kind: journalapi.KindHeader, At: time.Now().UTC(), Header: &header}}
	size := 0
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	send := func() {
		if len(batch) == 0 {
			return
		}
		if err := activity.GetClient(ctx).SignalWorkflow(sctx, runID, "", engine.SignalRecord, engine.Record{Journal: batch}); err != nil {
			fmt.Fprintf(c.stderr, "stratos worker %s: run %s: pass the replayed calls to its workflow: %v\n", c.worker, runID, err)
		}
		batch, size = nil, 0
	}
	for _, e := range j.Entries {
		if !e.Replayed {
			continue
		}
		line, err := json.Marshal(e)
		if err != nil {
			continue
		}
		if size+len(line) > maxReplayedSignal {
			send()
		}
		batch, size = append(batch, e), size+len(line)
	}
	send()
}

// queryJournal is the journal run id's workflow kept. A run the server
// no longer has (another namespace, or its history was removed) is not
// one another attempt would find.
func queryJournal(ctx context.Context, id string) ([]journalapi.Entry, error) {
	// The run's workflow answers on a code worker: when the one that ran it
	// died, only after Temporal gave up on that worker (seconds, on a loaded
	// machine more than the code's heartbeat timeout).
	var res converter.EncodedValue
	err := whileBeating(ctx, func() (err error) {
		res, err = activity.GetClient(ctx).QueryWorkflow(ctx, id, "", engine.QueryJournal)
		return err
	})
	if err != nil {
		var nf *serviceerror.NotFound
		if errors.As(err, &nf) {
			return nil, temporal.NewNonRetryableApplicationError(
				fmt.Sprintf("read run %s's journal: the Temporal server has no workflow %s (another namespace, or its history was removed): %v", id, id, err), temporalapi.CodeRunNotFound, err)
		}
		return nil, fmt.Errorf("read run %s's journal: %w", id, err)
	}
	var entries []journalapi.Entry
	if err := res.Get(&entries); err != nil {
		return nil, fmt.Errorf("decode run %s's journal: %w", id, err)
	}
	return entries, nil
}

// mergeJournals is what an attempt replays: the header of the run's own
// journal (else the resumed run's), then the own journal's entries, then
// the resumed run's. A reader keeps the first entry of a place, so the own
// journal's answer stands where both have one, and a call of the resumed
// run that the own journal lacks (the attempt before died before its copy
// of the entry reached the workflow) is still answered. Nil when there is
// nothing to replay: no header, or no entry. A journal of the header alone
// holds nothing to replay (an execute the attempt before asked for is
// attached to by its workflow ID), and stratos run cannot replay one (its
// SDK finds no entries): the attempt starts afresh.
func mergeJournals(own, resumed []journalapi.Entry) []journalapi.Entry {
	var header *journalapi.Entry
	var rest []journalapi.Entry
	for _, journal := range [][]journalapi.Entry{own, resumed} {
		for i, e := range journal {
			if e.Kind != journalapi.KindHeader {
				rest = append(rest, e)
			} else if header == nil {
				header = &journal[i]
			}
		}
	}
	if header == nil || len(rest) == 0 {
		return nil
	}
	return append([]journalapi.Entry{*header}, rest...)
}

// limited writes at most n bytes to w, then drops the rest.
type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n <= 0 {
		return len(p), nil
	}
	q := p
	if len(q) > l.n {
		q = q[:l.n]
	}
	l.n -= len(q)
	if _, err := l.w.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}
