package freshness

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/filestat"
)

// StatCacheFile is the stat cache's path inside a workflow directory,
// beside the build record: it describes the files that record was
// computed from.
const StatCacheFile = "dist/.stratos-stat.json"

// statCacheFormat changes whenever the cache's content changes meaning;
// a cache of another format is ignored.
const statCacheFormat = 1

// StatCache lets a scan reuse a file's recorded hash, git-index style:
// when the file's size, modification time, change time, inode and device
// are what they were when it was hashed, its content is too. The change
// time is set by the kernel on every write, rename onto the path and
// timestamp change, so an edit is seen even when it keeps size and
// modification time. Builds write it; listing only reads it.
type StatCache struct {
	Format int `json:"format"`
	// ScannedAt is when the scan that wrote the cache started (Unix
	// nanoseconds); entries modified within filestat.RacyWindow of it are left out.
	ScannedAt int64 `json:"scannedAt"`
	// Files are keyed by the path the scan read (absolute, as seen).
	Files map[string]CachedFile `json:"files"`
}

// CachedFile is what a scan learned from one file.
type CachedFile struct {
	Stat   FileStat `json:"stat"`
	SHA256 string   `json:"sha256"`
	// Specs are the file's relative import specifiers (TypeScript only).
	Specs []string `json:"specs,omitempty"`
}

// FileStat is the stat data that identify a file's content.
type FileStat = filestat.Stat

// ReadStatCache reads the stat cache of the workflow in wfDir; a missing,
// unreadable or foreign cache is nil (the scan then hashes every file).
func ReadStatCache(wfDir string) *StatCache {
	bp := buffers.Get().(*[]byte)
	defer buffers.Put(bp)
	data, _, err := filestat.ReadFile(filepath.Join(wfDir, StatCacheFile), bp)
	if err != nil {
		return nil
	}
	var c StatCache
	if fastjson.Unmarshal(data, &c) != nil || c.Format != statCacheFormat {
		return nil
	}
	return &c
}

// WriteStatCacheInto writes c atomically into outDir, a build's output
// directory that becomes the workflow's dist/; opts are atomicfile's.
func WriteStatCacheInto(outDir string, c *StatCache, opts ...atomicfile.Option) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	p := filepath.Join(outDir, filepath.Base(StatCacheFile))
	if err := atomicfile.WriteFile(p, append(data, '\n'), atomicfile.Public, opts...); err != nil {
		return fmt.Errorf("write the stat cache %s: %w", p, err)
	}
	return nil
}

// lookup returns the cached entry of path when stat matches it and the
// entry is not racy.
func (c *StatCache) lookup(path string, stat FileStat) (CachedFile, bool) {
	if c == nil {
		return CachedFile{}, false
	}
	e, ok := c.Files[path]
	if !ok || e.Stat != stat || e.Stat.Racy(c.ScannedAt) {
		return CachedFile{}, false
	}
	return e, true
}

// statRecorder collects, during one scan, the entries of a new cache.
type statRecorder struct {
	cache *StatCache
}

func newStatRecorder() *statRecorder {
	return &statRecorder{cache: &StatCache{
		Format: statCacheFormat, ScannedAt: time.Now().UnixNano(), Files: map[string]CachedFile{},
	}}
}

// add records what the scan used for path, unless its stat data is too
// recent to vouch for it.
func (r *statRecorder) add(path string, e CachedFile) {
	if r == nil || e.Stat.Racy(r.cache.ScannedAt) {
		return
	}
	r.cache.Files[path] = e
}
