package runs

import (
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
// hidden (listings skip dot-names) and carries the format's version (v3:
// the binary encoding of indexcodec.go; v2 was gob, whose package
// initialization cost every start of stratos-run about a millisecond).
const IndexFile = ".index-v3"

// oldIndexFiles are the caches of earlier versions, removed when the
// index is written.
var oldIndexFiles = []string{".index-v2.gob"}

// index is the decoded IndexFile: finished runs by execution ID.
type index map[string]Run

// readIndex returns the cached summaries, empty when there are none or the
// cache cannot be decoded.
func (s *Store) readIndex() index {
	f, err := os.Open(filepath.Join(s.Dir, IndexFile))
	if err != nil {
		return index{}
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return index{}
	}
	list, err := decodeIndex(data)
	if err != nil {
		return index{}
	}
	idx := make(index, len(list))
	for _, r := range list {
		idx[r.ExecutionID] = r
	}
	return idx
}

// writeIndex replaces the cache with the finished runs of list. Two
// listings that write at once each leave a whole, valid cache.
func (s *Store) writeIndex(list []Run) error {
	var data []byte
	n := 0
	for _, r := range list {
		if r.Status == records.StatusRunning {
			continue
		}
		var ok bool
		if data, ok = appendIndexEntry(data, r); ok { // without r.Dir: derived from the runs directory when read
			n++
		}
	}
	for _, old := range oldIndexFiles {
		_ = os.Remove(filepath.Join(s.Dir, old)) // a cache: nothing is lost
	}
	return atomicfile.Write(filepath.Join(s.Dir, IndexFile), atomicfile.Public, func(w io.Writer) error {
		_, err := w.Write(appendIndexHeader(nil, n))
		if err == nil {
			_, err = w.Write(data)
		}
		return err
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
