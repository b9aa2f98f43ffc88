package freshness

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A marker no real SHA-256 can be: seeing it in a scan's result proves the
// scan took the hash from the cache instead of reading the file.
const cachedMarker = "from-the-stat-cache"

// statCacheFixture is a workflow with a local import and a shared lib
// import, and a stat cache recorded for it whose hashes are all replaced by
// cachedMarker. The cache's scan is dated in the future, so that the
// files just written count as settled, not racily clean.
func statCacheFixture(t *testing.T) (root, wf string) {
	t.Helper()
	root = t.TempDir()
	wf = filepath.Join(root, "wf")
	write(t, wf, "workflow.yaml", "name: wf\n")
	write(t, wf, "workflow.ts", `import "./helper.js"; import "../lib/shared.js";`)
	write(t, wf, "helper.ts", "export const a = 1;\n")
	write(t, root, "lib/shared.ts", "export const b = 2;\n")
	rec := &statRecorder{cache: &StatCache{Format: statCacheFormat, ScannedAt: time.Now().Add(time.Hour).UnixNano(), Files: map[string]CachedFile{}}}
	sc := &scanState{hash: true, rec: rec}
	if _, err := NewScanner(root).scan(wf, sc); err != nil {
		t.Fatal(err)
	}
	// The recorder leaves out racy entries; the future date made none.
	if len(rec.cache.Files) != 4 {
		t.Fatalf("cache has %d entries, want 4: %v", len(rec.cache.Files), rec.cache.Files)
	}
	for p, e := range rec.cache.Files {
		e.SHA256 = cachedMarker
		rec.cache.Files[p] = e
	}
	if err := os.MkdirAll(filepath.Join(wf, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteStatCacheInto(filepath.Join(wf, "dist"), rec.cache); err != nil {
		t.Fatal(err)
	}
	return root, wf
}

// hashes scans wf with a new Scanner and returns its files' and imports'
// hashes by path.
func hashes(t *testing.T, root, wf string) map[string]string {
	t.Helper()
	src, err := NewScanner(root).Sources(wf)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range append(src.Files, src.Imports...) {
		out[f.Path] = f.SHA256
	}
	return out
}

func TestStatCacheReusesHashesOfUnchangedFiles(t *testing.T) {
	root, wf := statCacheFixture(t)
	got := hashes(t, root, wf)
	for _, p := range []string{"workflow.yaml", "workflow.ts", "helper.ts", "lib/shared.ts"} {
		if got[p] != cachedMarker {
			t.Errorf("%s: hash %q, want it from the stat cache", p, got[p])
		}
	}
}

func TestStatCacheSeesSameSizeEditWithTheSameModificationTime(t *testing.T) {
	root, wf := statCacheFixture(t)
	p := filepath.Join(wf, "helper.ts")
	before, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	// Same size, and the modification time put back: only the change
	// time (and the content) tell.
	if err := os.WriteFile(p, []byte("export const a = 9;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
	got := hashes(t, root, wf)
	if want := sum([]byte("export const a = 9;\n")); got["helper.ts"] != want {
		t.Fatalf("helper.ts: hash %q, want the new content's %q", got["helper.ts"], want)
	}
	if got["workflow.ts"] != cachedMarker {
		t.Errorf("workflow.ts was re-hashed though unchanged")
	}
}

func TestStatCacheTouchWithoutChangeKeepsTheKey(t *testing.T) {
	root, wf := statCacheFixture(t)
	p := filepath.Join(wf, "helper.ts")
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	got := hashes(t, root, wf)
	// Re-hashed (the stat data changed), to the same content hash.
	if want := sum([]byte("export const a = 1;\n")); got["helper.ts"] != want {
		t.Fatalf("helper.ts: hash %q, want %q", got["helper.ts"], want)
	}
}

func TestStatCacheSeesReplaceByRename(t *testing.T) {
	root, wf := statCacheFixture(t)
	p := filepath.Join(root, "lib", "shared.ts")
	before, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	tmp := p + ".new"
	if err := os.WriteFile(tmp, []byte("export const b = 7;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	got := hashes(t, root, wf)
	if want := sum([]byte("export const b = 7;\n")); got["lib/shared.ts"] != want {
		t.Fatalf("lib/shared.ts: hash %q, want the new content's %q", got["lib/shared.ts"], want)
	}
}

func TestStatCacheRacilyCleanEntriesAreRehashed(t *testing.T) {
	root, wf := statCacheFixture(t)
	c := ReadStatCache(wf)
	if c == nil {
		t.Fatal("no stat cache")
	}
	// A cache whose scan started now: every file was written within the
	// racy window before it, so none of its entries may be trusted.
	c.ScannedAt = time.Now().UnixNano()
	if err := WriteStatCacheInto(filepath.Join(wf, "dist"), c); err != nil {
		t.Fatal(err)
	}
	for p, h := range hashes(t, root, wf) {
		if h == cachedMarker {
			t.Errorf("%s: racily clean entry trusted", p)
		}
	}
}

func TestStatCacheRecorderLeavesOutRacyFiles(t *testing.T) {
	root := t.TempDir()
	wf := filepath.Join(root, "wf")
	write(t, wf, "workflow.ts", "export {};\n")
	_, c, err := NewScanner(root).SourcesForRecord(wf)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files) != 0 {
		t.Fatalf("a file written just before the scan was cached: %v", c.Files)
	}
}

func TestSourcesNeverWritesTheStatCache(t *testing.T) {
	root, wf := statCacheFixture(t)
	p := filepath.Join(wf, StatCacheFile)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	hashes(t, root, wf)
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatalf("Sources wrote %s (err %v)", p, err)
	}
}
