package command

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// resumption is what `stratos runs resume` adds to an execution: the
// execution it resumes and that execution's journal.
type resumption struct {
	from string
	// carried is what the resumed chain of executions spent.
	carried records.Spent
	journal *journalapi.Journal
	// strict refuses to resume when a workflow's code changed.
	strict bool
	// changed are the workflows whose build key differs from the
	// journal header's, once compared.
	changed  []string
	compared bool
}

// replaySource is what the runtime reads of the resumed execution's journal.
type replaySource struct {
	From    string             `json:"from"`
	Entries []journalapi.Entry `json:"entries"`
}

// startJournal begins the run's journal with its header, before node
// starts: stratos run knows the build keys; the runtime appends the
// entries. On resume it first compares the build keys with the resumed
// journal's and, with --strict, refuses when code changed.
func (x *execution) startJournal() *clierr.Error {
	keys := x.target.BuildKeys()
	if x.resume != nil && !x.resume.compared {
		if ce := x.resume.compare(keys, x.log.Warn); ce != nil {
			return ce
		}
	}
	header := journalapi.Entry{V: journalapi.Version, Kind: journalapi.KindHeader, At: time.Now().UTC(), Header: &journalapi.Header{
		ExecutionID: x.id, Workflow: x.target.Name(), BuildKeys: keys, InputSHA256: canonicalHash(x.input),
	}}
	if x.resume != nil {
		header.Header.ResumedFrom = x.resume.from
	}
	if err := writeJournalHeader(x.record.Dir(), header); err != nil {
		return clierr.New(runapi.CodeRunRecordFailed, "start the run's journal in %s: %v", x.record.Dir(), err).Wrap(err)
	}
	return nil
}

// writeJournalHeader creates the journal with its header line. Nothing
// waits for the disk here (a run's start must stay fast): the runtime
// syncs the file's data in the background as it appends entries (a header
// without entries is worth nothing), and the directory entry is synced
// here in the background, so that entries synced later do not outlive the
// file's name in a crash of the machine.
func writeJournalHeader(dir string, header journalapi.Entry) error {
	line, err := json.Marshal(header)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, journalapi.File), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		go syncDir(dir)
	}
	return err
}

// syncDir syncs dir's entries; a failure only weakens a crash's guarantee.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// compare notes the workflows whose code changed since the journal was
// written; with strict, any is an error (exit 2).
func (r *resumption) compare(keys map[string]string, warn func(string, ...any)) *clierr.Error {
	r.compared = true
	old := r.journal.Header.BuildKeys
	for name, key := range keys {
		if prev, ok := old[name]; ok && prev != key {
			r.changed = append(r.changed, name)
		}
	}
	slices.Sort(r.changed)
	if len(r.changed) == 0 {
		return nil
	}
	list := strings.Join(r.changed, ", ")
	if r.strict {
		return clierr.Usage(runapi.CodeResumeCodeChanged,
			"run %s cannot be resumed with --strict: the code of workflow(s) %s changed since it ran (without --strict, the calls that still match are replayed)", r.from, list).
			WithDetails(map[string]any{"executionId": r.from, "changedWorkflows": r.changed})
	}
	warn("the code changed since the resumed run: only the calls that still match are replayed", "from", r.from, "workflows", list)
	return nil
}

// carried is what the executions the run resumes spent (zero for a first run).
func (x *execution) carried() records.Spent {
	if x.resume == nil {
		return records.Spent{}
	}
	return x.resume.carried
}

// carriedRecord is carried as invocation.json keeps it (nil for a first run).
func (r *resumption) carriedRecord() *records.Spent {
	if r == nil {
		return nil
	}
	c := r.carried
	return &c
}

// source is the runtime's view of the resumed journal (nil when not resuming).
func (r *resumption) source() *replaySource {
	if r == nil {
		return nil
	}
	// A journal of its header alone (the run ended before its first
	// call) still sends a list: the runtime iterates it.
	entries := r.journal.Entries
	if entries == nil {
		entries = []journalapi.Entry{}
	}
	return &replaySource{From: r.from, Entries: entries}
}

// report completes the runtime's report of the replay (nil when it sent
// none, a run that ended before its workflow started) with what stratos
// run knows.
func (r *resumption) report(got *journalapi.Report) *journalapi.Report {
	if r == nil {
		return nil
	}
	rep := journalapi.Report{}
	if got != nil {
		rep = *got
	}
	rep.From, rep.ChangedWorkflows = r.from, r.changed
	return &rep
}

// canonicalHash is the hex SHA-256 of raw's canonical JSON (object keys
// sorted); raw itself when it is not JSON.
func canonicalHash(raw json.RawMessage) string {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	canonical := []byte(raw)
	if d.Decode(&v) == nil {
		if b, err := json.Marshal(v); err == nil {
			canonical = b
		}
	}
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}
