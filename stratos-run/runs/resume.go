package runs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// ResumePoint is a run that can be resumed: how it was invoked and its
// journal.
type ResumePoint struct {
	Run        Run
	Invocation records.Invocation
	// Journal is nil for a run on the Temporal engine: its Temporal
	// workflow keeps the journal, and the worker that runs the resuming
	// run's code asks it.
	Journal *journalapi.Journal
	// Problems are journal lines that were skipped (a line torn by a
	// crash, say): their calls run again.
	Problems []journalapi.Problem
	// spent is what the run's own usage events add up to.
	spent records.Spent
	// lock is the run's resume lock (see lockResume), nil for a run on
	// the Temporal engine.
	lock *os.File
}

// Release lets the run be resumed again: the execution that resumes it
// has ended. The lock goes with the process too, however it ends.
func (p *ResumePoint) Release() {
	if p != nil && p.lock != nil {
		_ = p.lock.Close()
		p.lock = nil
	}
}

// ResumePoint reads the run id for `stratos runs resume`: a run that
// crashed, failed, was cancelled or interrupted, with a journal. A run
// that succeeded or still runs is refused, as is one without a usable
// journal (usage errors, exit 2). The status of a run on the Temporal
// engine whose submitter is gone is the one its workflow reports.
func (s *Store) ResumePoint(id string) (*ResumePoint, error) {
	r, err := s.Load(id)
	if err != nil {
		return nil, err
	}
	details := map[string]any{"executionId": id, "status": r.Status}
	switch r.Status {
	case records.StatusSucceeded:
		return nil, clierr.Usage(runapi.CodeResumeNotResumable, "run %s succeeded: there is nothing to resume (run the workflow again with stratos run)", id).WithDetails(details)
	case records.StatusRunning:
		return nil, clierr.Usage(runapi.CodeResumeNotResumable, "run %s is still running: stop it first (stratos runs stop %s)", id, id).WithDetails(details)
	}
	inv, err := records.ReadInvocation(r.Dir)
	if err != nil {
		return nil, unreadable(id, err)
	}
	if inv.Temporal != nil {
		point := &ResumePoint{Run: r, Invocation: inv}
		if point.spent, err = spentIn(r.Dir); err != nil {
			return nil, unreadable(id, err)
		}
		return point, nil
	}
	lock, err := s.lockResume(id, r.Dir)
	if err != nil {
		return nil, err
	}
	point, err := s.resumePoint(r, inv, lock)
	if err != nil {
		_ = lock.Close()
		return nil, err
	}
	return point, nil
}

// resumePoint reads the journal and spending of run r, locked for resume.
func (s *Store) resumePoint(r Run, inv records.Invocation, lock *os.File) (*ResumePoint, error) {
	id := r.ExecutionID
	details := map[string]any{"executionId": id, "status": r.Status}
	j, problems, err := readJournal(r.Dir)
	if err == nil {
		err = ownJournal(j.Header, id, inv.Workflow)
	}
	if err != nil {
		details["reason"], details["journal"] = err.Error(), filepath.Join(r.Dir, journalapi.File)
		return nil, clierr.Usage(runapi.CodeResumeNoJournal, "run %s cannot be resumed: %v", id, err).WithDetails(details).Wrap(err)
	}
	j.Entries = inherit(j.Entries, s.earlierEntries(j.Header, 1))
	point := &ResumePoint{Run: r, Invocation: inv, Journal: j, Problems: problems, lock: lock}
	if point.spent, err = spentIn(r.Dir); err != nil {
		return nil, unreadable(id, err)
	}
	return point, nil
}

// lockResume takes run id's resume lock, an exclusive flock of its record
// directory held until the execution that resumes it ends: two resumes of
// one run at once would both make every call its journal does not answer,
// their agents in the same worktrees. A run whose lock is held is refused
// (resume_not_resumable), naming the execution that holds it when its
// record is already there. The record itself is not changed, and a lock
// of a process that died is gone with it.
func (s *Store) lockResume(id, dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, unreadable(id, err)
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		return f, nil
	}
	_ = f.Close()
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, unreadable(id, fmt.Errorf("lock %s: %w", dir, err))
	}
	details := map[string]any{"executionId": id}
	if by := s.runningResumes(id); len(by) > 0 {
		details["resumedBy"] = by
		return nil, clierr.Usage(runapi.CodeResumeNotResumable, "run %s is being resumed by %s, which is still running: wait for it to end, or stop it (stratos runs stop %s)", id, by[0], by[0]).WithDetails(details)
	}
	return nil, clierr.Usage(runapi.CodeResumeNotResumable, "run %s is being resumed by another stratos runs resume, which is still starting, or by the stratos run --retry that waits to resume it: wait for it to end", id).WithDetails(details)
}

// runningResumes are the executions that resume run id and still run.
func (s *Store) runningResumes(id string) []string {
	all, _, err := s.all()
	if err != nil {
		return nil
	}
	var by []string
	for _, r := range all {
		if r.ResumedFrom == id && r.Status == records.StatusRunning {
			by = append(by, r.ExecutionID)
		}
	}
	return by
}

// ChainSpent is what the run and the executions it resumed spent: the
// budget of the execution that resumes it counts it.
func (p *ResumePoint) ChainSpent() records.Spent {
	var carried records.Spent
	if p.Invocation.Carried != nil {
		carried = *p.Invocation.Carried
	}
	return carried.Plus(p.spent)
}

// spentIn is what the usage events of the record in dir add up to.
func spentIn(dir string) (records.Spent, error) {
	var u Usage
	err := EachEvent(filepath.Join(dir, EventsFile), func(e eventapi.Event) {
		if t, ok := e.Details.(*eventapi.Usage); ok {
			u.add(t)
		}
	})
	if errors.Is(err, fs.ErrNotExist) {
		err = nil // no agent ever ran
	}
	return SpentOf(u), err
}

// ownJournal refuses a journal whose header names another execution or
// workflow than the run's: a file copied or restored from another record
// is not what this run did, and replaying it would answer its calls with
// another run's results.
func ownJournal(h journalapi.Header, id, workflow string) error {
	if h.ExecutionID != id || h.Workflow != workflow {
		return fmt.Errorf("its journal is not its own: the header names execution %s of workflow %q (the run is %s of workflow %q)", h.ExecutionID, h.Workflow, id, workflow)
	}
	return nil
}

// readJournal reads dir's journal; its absence is said plainly. It is
// opened as every record file is, so that a FIFO in its place is refused
// rather than waited on.
func readJournal(dir string) (*journalapi.Journal, []journalapi.Problem, error) {
	f, _, err := records.OpenRegular(filepath.Join(dir, journalapi.File))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, errors.New("it has no journal (it was recorded by an older version of Stratos, or ended before its workflow started); run it again with stratos run")
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return journalapi.Read(f)
}
