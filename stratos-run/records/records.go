// Package records writes run records: one directory per execution under
// ~/.stratos/runs/<execution-id>/, so that every run can be inspected after
// the fact. Every file is written atomically (temp file + rename), and
// status.json is written last: a reader that sees a final status sees the
// files it describes.
//
//	invocation.json  what was run: workflow, directories, input, overrides,
//	                 budget, pid and the process's start time
//	status.json      running, then succeeded | failed | cancelled | interrupted,
//	                 or crashed when a later command found the process gone
//	output.json      the output (succeeded runs)
//	error.json       the error (every other final status)
//	tree.json        the child-invocation tree the runtime reported
//	console.log      detached runs: the workflow's stdout and stderr
//
// events.jsonl (EventsFile) is appended to by the agent host (agent
// events) and by the runtime (progress from workflow code), one JSON object
// per line.
package records

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/procid"
	"github.com/stratoscli/stratos/shared/roots"
)

// Final statuses.
const (
	StatusRunning     = "running"
	StatusSucceeded   = "succeeded"
	StatusFailed      = "failed"
	StatusCancelled   = "cancelled"   // interrupted; the workflow was cancelled and cleaned up
	StatusInterrupted = "interrupted" // interrupted; the runtime had to be killed before it finished cleaning up
	StatusCrashed     = "crashed"     // the run's process died without writing a final status (see MarkCrashed)
)

// Statuses lists every status a record can hold, running first.
var Statuses = []string{StatusRunning, StatusSucceeded, StatusFailed, StatusCancelled, StatusInterrupted, StatusCrashed}

// File names inside a run directory.
const (
	InvocationFile = "invocation.json"
	StatusFile     = "status.json"
	OutputFile     = "output.json"
	ErrorFile      = "error.json"
	TreeFile       = "tree.json"
	ConsoleFile    = "console.log"
	EventsFile     = "events.jsonl"
)

// NewExecutionID returns an ID that sorts by start time: the UTC time to the
// second, then 8 random hex digits, e.g. 20261202T170000Z-1a2b3c4d. (The SDK
// makes child execution IDs the same way.)
func NewExecutionID(now time.Time, random io.Reader) (string, error) {
	var b [4]byte
	if _, err := io.ReadFull(random, b[:]); err != nil {
		return "", fmt.Errorf("random execution ID: %w", err)
	}
	return now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:]), nil
}

// executionIDPattern matches the IDs NewExecutionID makes.
// Compiled on first use rather than at start, which every process that
// links the package would pay whether it uses it or not.
var executionIDPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$`) })

// ValidExecutionID reports whether id has the form NewExecutionID gives, so
// that it is safe as a directory name.
func ValidExecutionID(id string) bool { return executionIDPattern().MatchString(id) }

// Dir returns the runs directory, ~/.stratos/runs.
func Dir() (string, error) {
	home, err := roots.StratosHome()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "runs"), nil
}

// Invocation is invocation.json.
type Invocation struct {
	ExecutionID string          `json:"executionId"`
	Workflow    string          `json:"workflow"`
	Dir         string          `json:"dir"`
	Root        string          `json:"root"`
	Cwd         string          `json:"cwd"`
	Input       json.RawMessage `json:"input"`
	Overrides   json.RawMessage `json:"overrides"`
	PID         int             `json:"pid"`
	// ProcessStart is the kernel's start time of PID (clock ticks since
	// boot), so that a later reader does not mistake an unrelated process
	// that reused the pid for this run. 0 when it could not be read.
	ProcessStart uint64    `json:"processStart,omitempty"`
	StartedAt    time.Time `json:"startedAt"`
	// Budget is the budget the run was held to (nil: none), kept so that
	// a finished run still shows what it spent against its limits.
	Budget *Budget `json:"budget,omitempty"`
	// ResumedFrom is the execution this one resumes (stratos runs resume).
	ResumedFrom string `json:"resumedFrom,omitempty"`
	// Carried is what the executions this one resumes spent, the whole
	// chain before it: its budget counts it (nil for a first run).
	Carried *Spent `json:"carried,omitempty"`
	// Temporal names the run's Temporal workflow when it runs on the
	// Temporal engine (nil for a local run): its code runs on a worker,
	// and PID is the process here that submitted it and waits for it.
	Temporal *TemporalRun `json:"temporal,omitempty"`
	// AttemptOf is the Temporal workflow whose code this run is an
	// attempt at, when a stratos worker started it ("" otherwise).
	AttemptOf string `json:"attemptOf,omitempty"`
}

// Spent is what agents spent, in a budget's terms: tokens are every token
// (cache included), and a turn of unknown cost counts against tokens only.
type Spent struct {
	Tokens           int64   `json:"tokens"`
	Turns            int     `json:"turns"`
	UnknownCostTurns int     `json:"unknownCostTurns"`
	USD              float64 `json:"usd"`
}

// Plus is s and t together.
func (s Spent) Plus(t Spent) Spent {
	return Spent{Tokens: s.Tokens + t.Tokens, Turns: s.Turns + t.Turns, UnknownCostTurns: s.UnknownCostTurns + t.UnknownCostTurns,
		USD: math.Round((s.USD+t.USD)*1e10) / 1e10}
}

// Budget is a run's spending limits; a zero field sets no limit.
type Budget struct {
	USD    float64 `json:"usd,omitempty"`
	Tokens int64   `json:"tokens,omitempty"`
}

// Status is status.json.
type Status struct {
	ExecutionID string     `json:"executionId"`
	Workflow    string     `json:"workflow"`
	Status      string     `json:"status"`
	StartedAt   time.Time  `json:"startedAt"`
	EndedAt     *time.Time `json:"endedAt,omitempty"`
	ExitCode    *int       `json:"exitCode,omitempty"`
	Warnings    []string   `json:"warnings,omitempty"`
	// Reconciled says when and why a later command, not the run itself,
	// wrote this status (only for crashed runs).
	Reconciled *Reconciliation `json:"reconciled,omitempty"`
	// ResumedFrom is the execution this one resumes (stratos runs resume).
	ResumedFrom string `json:"resumedFrom,omitempty"`
	// Resume is what replaying that execution's journal came to, once
	// the run ended.
	Resume *journalapi.Report `json:"resume,omitempty"`
	// AttemptOf is Invocation.AttemptOf, kept here too for listings,
	// which read only the status.
	AttemptOf string `json:"attemptOf,omitempty"`
}

// Reconciliation is how a later command found a run that could not finish
// its own record.
type Reconciliation struct {
	At     time.Time `json:"at"`
	Reason string    `json:"reason"`
	// InferredEnd is when the run most probably ended: nobody saw it end,
	// so it is inferred from the record (see InferEnd), and the run's
	// duration ends there rather than at At. Nil in records reconciled
	// before it was recorded.
	InferredEnd *time.Time `json:"inferredEnd,omitempty"`
	// InferredFrom names the record file whose last modification
	// InferredEnd is.
	InferredFrom string `json:"inferredFrom,omitempty"`
}

// RunsDirMode is the mode of the runs directory: the records hold inputs,
// outputs and everything the agents said and read, often a repository's
// secrets among it, and a home directory is often readable by every user
// of the machine. The records inside keep ordinary modes: the directory
// alone keeps others out.
const RunsDirMode fs.FileMode = 0o700

// ensureRunsDir creates runsDir with RunsDirMode, or narrows an existing
// one to it (one made by an earlier version, or by a umask that let others
// in).
func ensureRunsDir(runsDir string) error {
	if err := os.MkdirAll(runsDir, RunsDirMode); err != nil {
		return recordError(runsDir, err)
	}
	info, err := os.Stat(runsDir)
	if err != nil {
		return recordError(runsDir, err)
	}
	if info.Mode().Perm() != RunsDirMode {
		if err := os.Chmod(runsDir, RunsDirMode); err != nil {
			return recordError(runsDir, err)
		}
	}
	return nil
}

// CreateConsole creates runsDir/<id>/ and its empty console.log, for a run
// started in the background (its standard output and error).
func CreateConsole(runsDir, id string) (*os.File, error) {
	if err := ensureRunsDir(runsDir); err != nil {
		return nil, err
	}
	dir := filepath.Join(runsDir, id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, recordError(dir, err)
	}
	path := filepath.Join(dir, ConsoleFile)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, recordError(path, err)
	}
	return f, nil
}

// Run is one run's record directory.
type Run struct {
	dir    string
	status Status
	// written is what WriteResult wrote, for Finish.
	written []resultFile
}

// Begin creates runsDir/<id>/ with invocation.json and a running status.
// When it fails, it leaves nothing of the run behind (a directory it made
// is removed, with its live entry): a record without a status would be
// listed as damaged.
func Begin(runsDir string, inv Invocation) (_ *Run, err error) {
	if err := ensureRunsDir(runsDir); err != nil {
		return nil, err
	}
	dir := filepath.Join(runsDir, inv.ExecutionID)
	created, err := makeRunDir(dir)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil && created {
			_ = os.Remove(liveEntry(dir))
			_ = os.RemoveAll(dir)
		}
	}()
	if len(inv.Overrides) == 0 {
		inv.Overrides = json.RawMessage("null")
	}
	if inv.ProcessStart == 0 && inv.PID > 0 {
		if id, err := procid.Of(inv.PID); err == nil {
			inv.ProcessStart = id.StartTime
		}
	}
	r := &Run{dir: dir, status: Status{ExecutionID: inv.ExecutionID, Workflow: inv.Workflow, Status: StatusRunning, StartedAt: inv.StartedAt, ResumedFrom: inv.ResumedFrom, AttemptOf: inv.AttemptOf}}
	data, err := writeJSON(dir, InvocationFile, inv)
	if err != nil {
		return nil, err
	}
	// Registered before its status says running: a run whose status says
	// running always has its live entry, unless a listing already found it
	// crashed.
	if err := register(dir, data); err != nil {
		return nil, err
	}
	if _, err := writeJSON(dir, StatusFile, r.status); err != nil {
		return nil, err
	}
	return r, nil
}

// makeRunDir creates a run's directory and says whether it did: a run
// started with --detach already has it (CreateConsole).
func makeRunDir(dir string) (bool, error) {
	err := os.Mkdir(dir, 0o755)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, recordError(dir, err)
	}
	return true, nil
}

// LiveDir, in the runs directory, holds one entry per run that has begun
// and not ended, named by its execution ID: a hard link to the run's
// invocation.json (a copy where the file system has no hard links), which
// has the pid and start time that tell whether the run's process is still
// there. A run starting reconciles only these instead of reading every
// record (runs.Store.ReconcileLive). The entry goes when the run's final
// status is written, or when a later command finds its process gone.
const LiveDir = ".live"

// liveEntry is the live entry of the run in dir.
func liveEntry(dir string) string {
	return filepath.Join(filepath.Dir(dir), LiveDir, filepath.Base(dir))
}

// register adds the live entry of the run in dir, whose invocation.json
// holds data.
func register(dir string, data []byte) error {
	entry := liveEntry(dir)
	err := os.Link(filepath.Join(dir, InvocationFile), entry)
	if errors.Is(err, os.ErrNotExist) {
		if err = os.MkdirAll(filepath.Dir(entry), 0o755); err == nil {
			err = os.Link(filepath.Join(dir, InvocationFile), entry)
		}
	}
	if err != nil {
		// No hard links here (or a leftover entry of the same name): a
		// copy says the same. Not flushed: a lost entry only means the
		// run is found crashed by a listing rather than by the next run.
		err = atomicfile.WriteFile(entry, data, atomicfile.Public, atomicfile.NoSync())
	}
	if err != nil {
		return recordError(entry, err)
	}
	return nil
}

// unregister removes the live entry of the run in dir. A failure is not
// reported: an entry whose run has a final status, or whose process is
// gone, is removed by the next run that starts.
func unregister(dir string) {
	_ = os.Remove(liveEntry(dir))
}

// Dir is the run's directory.
func (r *Run) Dir() string { return r.dir }

// Final is how a run ended.
type Final struct {
	Status   string
	ExitCode int
	EndedAt  time.Time
	Output   json.RawMessage // for succeeded runs
	Error    any             // for the others
	Tree     json.RawMessage // nil when the runtime reported none
	Warnings []string
	Resume   *journalapi.Report // nil unless the run resumed another
}

// WriteResult writes the files Finish writes before the status (the output
// or the error, and the tree), so that Finish with the same result has only
// the status left to write: a caller writes them while it waits for
// something else (node's exit). The status still says running.
func (r *Run) WriteResult(f Final) error {
	files, err := r.resultFiles(f)
	if err != nil {
		return err
	}
	r.written = nil
	if err := r.writeFiles(files); err != nil {
		return err
	}
	r.written = files
	return nil
}

// Finish writes the output or error, the tree, and then the final status.
// The first two are written at once: each write waits for the disk, and
// neither needs the other; the status waits for both. A file WriteResult
// wrote with the same content is not written again, and one it wrote that
// this end does not (the run ended otherwise after all) is removed: the
// record is what Finish alone writes.
func (r *Run) Finish(f Final) error {
	files, err := r.resultFiles(f)
	if err != nil {
		return err
	}
	if files, err = r.unwritten(files); err != nil {
		return err
	}
	if err := r.writeFiles(files); err != nil {
		return err
	}
	end, code := f.EndedAt.UTC(), f.ExitCode
	r.status.Status, r.status.EndedAt, r.status.ExitCode, r.status.Warnings = f.Status, &end, &code, f.Warnings
	r.status.Resume = f.Resume
	data, err := marshal(r.dir, StatusFile, r.status)
	if err == nil {
		err = writeFile(r.dir, StatusFile, data)
	}
	if err != nil {
		return err
	}
	unregister(r.dir)
	return nil
}

// resultFile is a file of the record and what it holds.
type resultFile struct {
	name string
	data []byte
}

// resultFiles returns the files Finish writes before the status: the
// output (succeeded runs) or the error, then the tree when there is one.
func (r *Run) resultFiles(f Final) ([]resultFile, error) {
	name, v := ErrorFile, f.Error
	if f.Status == StatusSucceeded {
		name, v = OutputFile, f.Output
	}
	data, err := marshal(r.dir, name, v)
	if err != nil {
		return nil, err
	}
	files := []resultFile{{name, data}}
	if len(f.Tree) > 0 {
		if data, err = marshal(r.dir, TreeFile, f.Tree); err != nil {
			return nil, err
		}
		files = append(files, resultFile{TreeFile, data})
	}
	return files, nil
}

// unwritten returns the files that WriteResult did not write as they are,
// once it has removed those it wrote that files does not have.
func (r *Run) unwritten(files []resultFile) ([]resultFile, error) {
	named := func(name string) func(resultFile) bool {
		return func(f resultFile) bool { return f.name == name }
	}
	for _, w := range r.written {
		if slices.ContainsFunc(files, named(w.name)) {
			continue
		}
		path := filepath.Join(r.dir, w.name)
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, recordError(path, err)
		}
	}
	left := make([]resultFile, 0, len(files))
	for _, f := range files {
		i := slices.IndexFunc(r.written, named(f.name))
		if i < 0 || !bytes.Equal(r.written[i].data, f.data) {
			left = append(left, f)
		}
	}
	r.written = nil
	return left, nil
}

// writeFiles writes files at once and returns the first one's error, if
// any, else the next's.
func (r *Run) writeFiles(files []resultFile) error {
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Go(func() { errs[i] = writeFile(r.dir, f.name, f.data) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// ReadInvocation reads dir/invocation.json.
func ReadInvocation(dir string) (Invocation, error) {
	var inv Invocation
	return inv, readRecordFile(dir, InvocationFile, &inv)
}

// ReadLiveEntry reads the live entry of run id in runsDir (LiveDir): the
// run's invocation.
func ReadLiveEntry(runsDir, id string) (Invocation, error) {
	var inv Invocation
	return inv, readRecordFile(filepath.Join(runsDir, LiveDir), id, &inv)
}

// ReadStatus reads dir/status.json. A file larger than MaxStatusSize, or
// one whose status is not one of Statuses, is an error.
func ReadStatus(dir string) (Status, error) {
	st, _, err := ReadStatusStat(dir)
	return st, err
}

// MarkCrashed rewrites the status of the run in dir as crashed, noticed at
// at for reason, when it still says running; it returns the status it left.
// The caller must have established that the run's process is gone: a live
// run could still write its own final status afterwards.
func MarkCrashed(dir string, at time.Time, reason string) (Status, error) {
	st, err := ReadStatus(dir)
	if err != nil || st.Status != StatusRunning {
		return st, err
	}
	at = at.UTC()
	st.Status = StatusCrashed
	st.Reconciled = &Reconciliation{At: at, Reason: reason}
	if end, from := InferEnd(dir, st.StartedAt, at); from != "" {
		st.Reconciled.InferredEnd, st.Reconciled.InferredFrom = &end, from
	}
	if _, err := writeJSON(dir, StatusFile, st); err != nil {
		return st, err
	}
	unregister(dir)
	return st, nil
}

// Unregister removes the live entry of the run in dir, whose status is
// final or which has no status.
func Unregister(dir string) { unregister(dir) }

// writeJSON writes v as indented JSON to dir/name through a temporary file
// renamed into place, so no reader ever sees half a file, and returns what
// it wrote.
func writeJSON(dir, name string, v any) ([]byte, error) {
	data, err := marshal(dir, name, v)
	if err != nil {
		return nil, err
	}
	return data, writeFile(dir, name, data)
}

// marshal returns v as the indented JSON of dir/name.
func marshal(dir, name string, v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, recordError(filepath.Join(dir, name), err)
	}
	return append(data, '\n'), nil
}

// writeFile replaces dir/name with data through a temporary file renamed
// into place.
func writeFile(dir, name string, data []byte) error {
	path := filepath.Join(dir, name)
	if err := atomicfile.WriteFile(path, data, atomicfile.Public); err != nil {
		return recordError(path, err)
	}
	return nil
}

func recordError(path string, err error) error {
	return clierr.New(runapi.CodeRunRecordFailed, "write the run record %s: %v", path, err).Wrap(err).
		WithDetails(map[string]any{"path": path})
}
