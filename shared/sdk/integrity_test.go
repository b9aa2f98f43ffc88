package sdk

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// placeSDK writes this CLI's SDK into root/node_modules as npm would
// install it (package.json and dist/), and a zod package.json beside it.
func placeSDK(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	dir := InstalledDir(root)
	write := func(p string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "package.json"), PackageJSON())
	for _, f := range embeddedFiles() {
		write(filepath.Join(dir, filepath.FromSlash(f.path)), f.data)
	}
	write(filepath.Join(root, "node_modules", "zod", "package.json"), []byte(`{"name":"zod","version":"4.0.0"}`))
	return root
}

// settledCache checks root's SDK and writes its stat cache as a build
// would, but dated an hour ahead so that the files just written count as
// settled, not racily clean.
func settledCache(t *testing.T, root string) {
	t.Helper()
	c := newIntegrity(root)
	c.found.ScannedAt = time.Now().Add(time.Hour).UnixNano()
	if !current(root, c) {
		t.Fatal("the placed SDK is not current")
	}
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	if n, want := len(c.found.Files), len(embeddedFiles())+1; n != want {
		t.Fatalf("the cache has %d files, want %d", n, want)
	}
}

// check runs Current's check and reports its answer and whether it had to
// read any file.
func check(root string) (current_, read bool) {
	c := newIntegrity(root)
	ok := current(root, c)
	return ok, c.read
}

// aDistFile returns the path of an installed dist/ file and its content.
func aDistFile(t *testing.T, root string) (string, []byte) {
	t.Helper()
	f := embeddedFiles()[0]
	return filepath.Join(InstalledDir(root), filepath.FromSlash(f.path)), f.data
}

func TestIntegritySkipsReadingFilesTheCacheVouchesFor(t *testing.T) {
	root := placeSDK(t)
	if ok, read := check(root); !ok || !read {
		t.Fatalf("without a cache: current %v, read %v; want true, true", ok, read)
	}
	settledCache(t, root)
	if ok, read := check(root); !ok || read {
		t.Fatalf("with a settled cache: current %v, read %v; want true, false", ok, read)
	}
}

func TestIntegrityRacyFilesAreNotCached(t *testing.T) {
	root := placeSDK(t)
	c := newIntegrity(root) // dated now: every file was written just before
	if !current(root, c) || len(c.found.Files) != 0 {
		t.Fatalf("a check of just-written files recorded %d of them; want none", len(c.found.Files))
	}
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(InstalledDir(root), verifiedFile)); err == nil {
		t.Fatal("a cache vouching for nothing was written")
	}
}

func TestIntegritySeesSameSizeEditWithTheSameModificationTime(t *testing.T) {
	root := placeSDK(t)
	settledCache(t, root)
	p, data := aDistFile(t, root)
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := append([]byte{}, data...)
	edited[len(edited)-1] ^= 1 // same size, other content
	if err := os.WriteFile(p, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	// The modification time put back: only the change time tells.
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if ok, _ := check(root); ok {
		t.Fatal("an SDK file edited in place (same size, same mtime) is still current")
	}
	if got := Damage(root); got != embeddedFiles()[0].path {
		t.Fatalf("Damage = %q, want %q", got, embeddedFiles()[0].path)
	}
}

func TestIntegrityReReadsATouchedFile(t *testing.T) {
	root := placeSDK(t)
	settledCache(t, root)
	p, _ := aDistFile(t, root)
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if ok, read := check(root); !ok || !read {
		t.Fatalf("after a touch: current %v, read %v; want true (content unchanged), true", ok, read)
	}
}

func TestIntegritySeesAFileReplacedByRename(t *testing.T) {
	root := placeSDK(t)
	settledCache(t, root)
	p, data := aDistFile(t, root)
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	other := append([]byte{}, data...)
	other[0] ^= 1
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, other, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	if ok, _ := check(root); ok {
		t.Fatal("an SDK file replaced by rename (same size, same mtime) is still current")
	}
}

func TestIntegritySeesAChangedPackageJSON(t *testing.T) {
	root := placeSDK(t)
	settledCache(t, root)
	p := filepath.Join(InstalledDir(root), "package.json")
	if err := os.WriteFile(p, []byte(`{"name":"@stratoscli/stratos","version":"0.0.0-other"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if Current(root) {
		t.Fatal("an SDK whose package.json names another version is current")
	}
}

func TestIntegrityIgnoresTheCacheOfAnotherSDK(t *testing.T) {
	root := placeSDK(t)
	settledCache(t, root)
	v := readVerified(InstalledDir(root))
	if v == nil {
		t.Fatal("the written cache does not read back")
	}
	v.ContentHash = "another"
	c := &integrity{dir: InstalledDir(root), found: v}
	if err := c.saveFound(); err != nil {
		t.Fatal(err)
	}
	if readVerified(InstalledDir(root)) != nil {
		t.Fatal("the cache of another SDK's files was taken")
	}
}

func TestIntegrityMissingFile(t *testing.T) {
	root := placeSDK(t)
	settledCache(t, root)
	p, _ := aDistFile(t, root)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if Current(root) {
		t.Fatal("an SDK with a file removed is current")
	}
}
