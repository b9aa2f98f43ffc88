package sdk

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/shared/version"
)

// verifiedFile is the SDK's stat cache inside its installed package
// directory: it goes when npm or `stratos clean --sdk` removes the package.
const verifiedFile = ".stratos-stat.json"

// verifiedFormat changes whenever the cache's content changes meaning; a
// cache of another format is ignored.
const verifiedFormat = 1

// verified is the SDK's stat cache, git-index style: the stat data each
// installed file had when it was last found to be this CLI's (package.json:
// its version and content hash; dist/…: byte for byte the embedded file).
// A file whose stat data are unchanged (and were not racily clean) is not
// read again, so checking a root's SDK costs about fifty stat calls.
// Builds and runs write it (CurrentRecorded); Current only reads it.
type verified struct {
	Format int `json:"format"`
	// ContentHash is the SDK the files were compared with: the cache of
	// another Stratos build vouches for nothing.
	ContentHash string `json:"contentHash"`
	// ScannedAt is when the check that wrote the cache started (Unix
	// nanoseconds); files changed within filestat.RacyWindow of it are
	// left out.
	ScannedAt int64 `json:"scannedAt"`
	// Files are keyed by their path in the package (package.json, dist/…).
	Files map[string]filestat.Stat `json:"files"`
}

func readVerified(dir string) *verified {
	data, err := os.ReadFile(filepath.Join(dir, verifiedFile))
	if err != nil {
		return nil
	}
	var v verified
	if json.Unmarshal(data, &v) != nil || v.Format != verifiedFormat || v.ContentHash != ContentHash() {
		return nil
	}
	return &v
}

// vouches reports whether the cache says the file at rel, now with stat
// data st, is still what it was found to be.
func (v *verified) vouches(rel string, st filestat.Stat) bool {
	if v == nil {
		return false
	}
	got, ok := v.Files[rel]
	return ok && got == st && !got.Racy(v.ScannedAt)
}

// integrity is one comparison of a root's installed SDK with this CLI's.
type integrity struct {
	dir   string
	cache *verified // what the last build recorded; nil when none
	found *verified // what this check found, for a new cache
	read  bool      // a file was read: a new cache would save work
}

func newIntegrity(root string) *integrity {
	dir := InstalledDir(root)
	return &integrity{dir: dir, cache: readVerified(dir), found: &verified{
		Format: verifiedFormat, ContentHash: ContentHash(), ScannedAt: time.Now().UnixNano(), Files: map[string]filestat.Stat{},
	}}
}

// packageCurrent reports whether the installed package.json names this
// CLI's version and content hash.
func (c *integrity) packageCurrent() bool {
	return c.check("package.json", func(data []byte) bool {
		var doc installedPackage
		return json.Unmarshal(data, &doc) == nil && doc.Version == version.Version && doc.ContentHash == ContentHash()
	})
}

// firstDamaged returns the first file of dist/ (relative to the package)
// that is not byte for byte this CLI's, "" when none.
func (c *integrity) firstDamaged() string {
	for _, f := range embeddedFiles() {
		if !c.check(f.path, func(data []byte) bool { return bytes.Equal(data, f.data) }) {
			return f.path
		}
	}
	return ""
}

// check reports whether the installed file rel is as wanted says, from the
// cache when it vouches for the file, else by reading it; either way it
// records the file's stat data, taken before its content was read.
func (c *integrity) check(rel string, wanted func(data []byte) bool) bool {
	p := filepath.Join(c.dir, filepath.FromSlash(rel))
	if st, err := filestat.Path(p); err == nil && c.cache.vouches(rel, st) {
		c.found.Files[rel] = st
		return true
	}
	c.read = true
	var buf []byte
	data, st, err := filestat.ReadFile(p, &buf)
	if err != nil || !wanted(data) {
		return false
	}
	if !st.Racy(c.found.ScannedAt) {
		c.found.Files[rel] = st
	}
	return true
}

// save writes what a check that found the SDK intact learned as its new
// stat cache, when that spares a later check some reads. A cache that
// cannot be written costs only speed: the error is for the log.
func (c *integrity) save() error {
	if !c.read || len(c.found.Files) == 0 {
		return nil
	}
	return c.saveFound()
}

// saveFound writes c.found as the SDK's stat cache, atomically.
func (c *integrity) saveFound() error {
	data, err := json.Marshal(c.found)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(c.dir, verifiedFile), append(data, '\n'), atomicfile.Public)
}

// Damage compares the installed SDK of root with this CLI's, file by file,
// and returns the first installed file (relative to the package) that was
// changed or removed; "" when every file is intact. Its package.json alone
// cannot tell: it still names the right version and content hash after a
// file of dist/ was edited or deleted, and every run would then fail.
func Damage(root string) string { return newIntegrity(root).firstDamaged() }

// embeddedFile is one file of the SDK's dist/, as this CLI embeds it.
type embeddedFile struct {
	path string // dist/…
	data []byte
}

// embeddedFiles returns the SDK's dist/ files in path order.
func embeddedFiles() []embeddedFile {
	var out []embeddedFile
	err := fs.WalkDir(dist, "dist", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := dist.ReadFile(p)
		out = append(out, embeddedFile{path: path.Clean(p), data: data})
		return err
	})
	if err != nil {
		panic(err) // the embedded files are always readable
	}
	return out
}

// Remove deletes the SDK installed in root (for `stratos clean --sdk`); the
// next preparation installs it again. It reports whether there was one.
func Remove(root string) (bool, error) {
	dir := InstalledDir(root)
	if _, err := os.Lstat(dir); err != nil {
		return false, nil
	}
	return true, os.RemoveAll(dir)
}
