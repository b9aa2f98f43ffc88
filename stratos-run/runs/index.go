package runs

import (
	"bufio"
	"encoding/gob"
	"io"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// IndexFile caches the summaries of finished runs in the runs directory, so
// that listing thousands of runs reads one file instead of two per run. A
// finished record never changes, so its summary never goes stale; running
// runs are never in it (they are read and reconciled every time), and a
// run whose directory is gone is dropped from every listing (the directory
// listing decides which runs exist). The file is only a cache: a missing,
// damaged or older-format index is rebuilt from the records. The name is
// hidden (listings skip dot-names) and carries the format's version (v2:
// exit codes kept apart, see indexEntry).
const IndexFile = ".index-v2.gob"

// index is the decoded IndexFile: finished runs by execution ID.
type index map[string]Run

// indexEntry is one cached run as gob stores it. Gob leaves out zero
// values, so a pointer to exit code 0 would come back nil: a succeeded
// run read from the cache would lose its exitCode. The code is kept as a
// value and a flag instead.
type indexEntry struct {
	Run     Run
	Exit    int
	HasExit bool
}

// readIndex returns the cached summaries, empty when there are none or the
// cache cannot be decoded.
func (s *Store) readIndex() index {
	f, err := os.Open(filepath.Join(s.Dir, IndexFile))
	if err != nil {
		return index{}
	}
	defer f.Close()
	var entries []indexEntry
	if gob.NewDecoder(bufio.NewReaderSize(f, 256<<10)).Decode(&entries) != nil {
		return index{}
	}
	idx := make(index, len(entries))
	for _, e := range entries {
		r := e.Run
		if e.HasExit {
			code := e.Exit
			r.ExitCode = &code
		}
		idx[r.ExecutionID] = r
	}
	return idx
}

// writeIndex replaces the cache with the finished runs of list. Two
// listings that write at once each leave a whole, valid cache.
func (s *Store) writeIndex(list []Run) error {
	finished := make([]indexEntry, 0, len(list))
	for _, r := range list {
		if r.Status == records.StatusRunning {
			continue
		}
		e := indexEntry{HasExit: r.ExitCode != nil}
		if e.HasExit {
			e.Exit = *r.ExitCode
		}
		r.Dir, r.ExitCode = "", nil // the directory is derived from the runs directory when read
		e.Run = r
		finished = append(finished, e)
	}
	return atomicfile.Write(filepath.Join(s.Dir, IndexFile), atomicfile.Public, func(w io.Writer) error {
		return gob.NewEncoder(w).Encode(finished)
	}, atomicfile.NoSync())
}

// cached returns the summary of run id from idx, with its directory.
func (s *Store) cached(idx index, id string) (Run, bool) {
	r, ok := idx[id]
	if !ok || r.Status == records.StatusRunning {
		return Run{}, false
	}
	r.Dir = filepath.Join(s.Dir, id)
	return r, true
}
