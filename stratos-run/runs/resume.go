package runs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// ResumePoint is a run that can be resumed: how it was invoked and its
// journal.
type ResumePoint struct {
	Run        Run
	Invocation records.Invocation
	Journal    *journalapi.Journal
	// Problems are journal lines that were skipped (a line torn by a
	// crash, say): their calls run again.
	Problems []journalapi.Problem
}

// ResumePoint reads the run id for `stratos runs resume`: a run that
// crashed, failed, was cancelled or interrupted, with a journal. A run
// that succeeded or still runs is refused, as is one without a usable
// journal (usage errors, exit 2).
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
	j, problems, err := readJournal(r.Dir)
	if err != nil {
		details["reason"] = err.Error()
		return nil, clierr.Usage(runapi.CodeResumeNoJournal, "run %s cannot be resumed: %v", id, err).WithDetails(details).Wrap(err)
	}
	return &ResumePoint{Run: r, Invocation: inv, Journal: j, Problems: problems}, nil
}

// readJournal reads dir's journal; its absence is said plainly.
func readJournal(dir string) (*journalapi.Journal, []journalapi.Problem, error) {
	f, err := os.Open(filepath.Join(dir, journalapi.File))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, errors.New("it has no journal (it was recorded by an older version of Stratos, or ended before its workflow started); run it again with stratos run")
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return journalapi.Read(f)
}
