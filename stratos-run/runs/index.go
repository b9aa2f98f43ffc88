package runs

import (
	"io"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// IndexFile caches the summaries of finished runs in the runs directory, so
// that listing thousands of runs reads one file and stats one per run
// instead of reading two per run. Each summary keeps the stat data of the
// status.json it was read from (size, modification and change times,
// inode), taken before reading it: a listing uses the summary only while
// the file's stat data are still those, so a status.json replaced, edited,
// emptied or removed since is read again (and reported when damaged), never
// listed with its old status. Running runs are never in it (they are read
// and reconciled every time), and a run whose directory is gone is dropped
// from every listing (the directory listing decides which runs exist). The
// file is only a cache: a missing, damaged or older-format index is rebuilt
// from the records. The name is hidden (listings skip dot-names) and
// carries the format's version (v5: the binary encoding of indexcodec.go
// with the stat data and the run each run resumes; v4 had no resumed run,
// v3 no stat data, v2 was gob).
const IndexFile = ".index-v5"

// MaxIndexSize bounds the index a listing reads: over a million runs. A
// larger index is neither read nor written; listing reads the records.
const MaxIndexSize = 256 << 20

// oldIndexFiles are the caches of earlier versions, removed when the
// index is written.
var oldIndexFiles = []string{".index-v2.gob", ".index-v3", ".index-v4"}

// indexEntry is a finished run as the index keeps it: its summary (without
// its directory) and the stat data of its status.json when it was read.
type indexEntry struct {
	run    Run
	status filestat.Stat
}

// index is the decoded IndexFile: finished runs by execution ID.
type index map[string]indexEntry

// readIndex returns the cached summaries, empty when there are none or the
// cache cannot be decoded.
func (s *Store) readIndex() index {
	data, _, err := records.ReadFile(filepath.Join(s.Dir, IndexFile), MaxIndexSize)
	if err != nil {
		return index{}
	}
	list, err := decodeIndex(data)
	if err != nil {
		return index{}
	}
	idx := make(index, len(list))
	for _, e := range list {
		if e.run.Status != records.StatusRunning {
			idx[e.run.ExecutionID] = e
		}
	}
	return idx
}

// writeIndex replaces the cache with entries. Two listings that write at
// once each leave a whole, valid cache.
func (s *Store) writeIndex(entries []indexEntry) error {
	var data []byte
	n := 0
	for _, e := range entries {
		var ok bool
		if data, ok = appendIndexEntry(data, e); ok { // without the run's Dir: derived from the runs directory when read
			n++
		}
	}
	for _, old := range oldIndexFiles {
		_ = os.Remove(filepath.Join(s.Dir, old)) // a cache: nothing is lost
	}
	head := appendIndexHeader(nil, n)
	if len(head)+len(data) > MaxIndexSize { // no reader would read it: listing works from the records
		if err := os.Remove(filepath.Join(s.Dir, IndexFile)); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	return atomicfile.Write(filepath.Join(s.Dir, IndexFile), atomicfile.Public, func(w io.Writer) error {
		_, err := w.Write(head)
		if err == nil {
			_, err = w.Write(data)
		}
		return err
	}, atomicfile.NoSync())
}

// vouches reports whether e still describes run id: its status.json, seen
// through the runs directory d, has the stat data e was read with.
func (e indexEntry) vouches(d *filestat.Dir, id string) bool {
	st, err := d.Stat(statusPath(id))
	return err == nil && st == e.status
}

// statusPath is the status.json of run id, relative to the runs directory.
func statusPath(id string) string { return id + string(os.PathSeparator) + records.StatusFile }
