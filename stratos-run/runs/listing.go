package runs

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// listing is one pass of List over the runs directory: the runs found,
// the records that could not be read, and what the index is to hold.
type listing struct {
	s   *Store
	dir *filestat.Dir
	idx index // what the index held; entries are removed as runs are found
	// scanned is when the pass began (Unix nanoseconds), before any stat:
	// stat data of a file changed since cannot vouch for what was read.
	scanned int64

	stats    []statusStat // by index in the ids listed: the indexed runs' status.json
	runs     []Run
	problems []error
	entries  []indexEntry // what the index is to hold
	recent   []int        // runs[i] finished but changed too recently to index (see vouchRecent)
	changed  bool         // entries differ from the index read
}

func (s *Store) newListing(dir *filestat.Dir) *listing {
	return &listing{s: s, dir: dir, idx: s.readIndex(), scanned: time.Now().UnixNano()}
}

// statusStat is the stat data of a run's status.json, when it could be
// stat'ed.
type statusStat struct {
	st filestat.Stat
	ok bool
}

// statIndexed stats the status.json of each run of ids that the index
// holds, on every CPU: in a listing from the index those stats, one system
// call each, are most of the work, and they do not depend on each other.
func (l *listing) statIndexed(ids []string) {
	l.stats = make([]statusStat, len(ids))
	workers := min(runtime.GOMAXPROCS(0), 1+len(ids)/1024)
	chunk := (len(ids) + workers - 1) / workers
	var wg sync.WaitGroup
	for from := 0; from < len(ids); from += chunk {
		wg.Go(func() {
			for i := from; i < min(from+chunk, len(ids)); i++ {
				if _, ok := l.idx[ids[i]]; ok {
					st, err := l.dir.Stat(statusPath(ids[i]))
					l.stats[i] = statusStat{st: st, ok: err == nil}
				}
			}
		})
	}
	wg.Wait()
}

// add lists run id, whose status.json has the stat data now (statIndexed):
// from the index while they are those it was indexed with, otherwise from
// its record.
func (l *listing) add(id string, now statusStat) {
	if e, ok := l.idx[id]; ok {
		delete(l.idx, id)
		if now.ok && now.st == e.status {
			e.run.Dir = filepath.Join(l.s.Dir, id)
			l.runs = append(l.runs, e.run)
			l.entries = append(l.entries, e)
			return
		}
		l.changed = true // changed since it was indexed: read it again
	}
	r, st, err := l.s.load(id)
	switch {
	case err != nil && l.s.beginning(id):
		return
	case err != nil:
		l.problems = append(l.problems, err)
		return
	}
	l.runs = append(l.runs, r)
	switch {
	case r.Status == records.StatusRunning || r.Engine != "":
	case st == (filestat.Stat{}) || st.Racy(l.scanned):
		l.recent = append(l.recent, len(l.runs)-1)
	default:
		l.entries = append(l.entries, indexEntry{run: r, status: st})
		l.changed = true
	}
}

// vouchRecent indexes the finished runs whose status.json changed too
// close to the listing for the stat data read with it to vouch for it (a
// second change in the same timestamp tick could leave them as they were;
// git's "racily clean" entries). It reads the file system's clock, then
// those records again: stat data taken after the clock vouch for what is
// read with them when the file last changed before the clock. So a run
// that just finished is indexed by the first listing after it, not only by
// one two seconds later. Reading the clock writes (a temporary file in the
// runs directory), so it is done only when there are such runs.
func (l *listing) vouchRecent() {
	if len(l.recent) == 0 {
		return
	}
	clock, err := filestat.ReadClock(l.s.Dir)
	if err != nil {
		return // a runs directory it cannot write to: no index is written either
	}
	for _, i := range l.recent {
		r, st, err := l.s.load(l.runs[i].ExecutionID)
		if err != nil || r.Status == records.StatusRunning || !clock.Vouches(st) {
			continue
		}
		l.runs[i] = r
		l.entries = append(l.entries, indexEntry{run: r, status: st})
		l.changed = true
	}
}

// finish sorts the runs and rewrites the index when it changed: runs added
// or read again, or runs whose directories are gone (what is left in idx).
func (l *listing) finish() {
	sortNewestFirst(l.runs)
	if !l.changed && len(l.idx) == 0 {
		return
	}
	if err := l.s.writeIndex(l.entries); err != nil {
		l.problems = append(l.problems, fmt.Errorf("write the runs index (a cache; listing still works): %w", err))
	}
}

// beginning reports whether run id, which could not be read, is a run
// being created this very moment rather than a damaged record: it has no
// status.json yet, and either no invocation.json either (a detached run's
// record begins with its console) or one whose process is still there
// (records.Begin writes the invocation first). A record that lost its
// status.json after its process ended is damaged.
func (s *Store) beginning(id string) bool {
	dir := filepath.Join(s.Dir, id)
	if _, err := filestat.Lstat(filepath.Join(dir, records.StatusFile)); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	inv, err := records.ReadInvocation(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil {
		return false
	}
	reason, err := processGone(inv)
	return err == nil && reason == ""
}

// runIDs lists the run directories of the runs directory d, sorted.
func runIDs(d *filestat.Dir) ([]string, error) {
	entries, err := d.Entries()
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.Type == fs.ModeDir && e.Name[0] != '.' {
			ids = append(ids, e.Name)
		}
	}
	return ids, nil
}
