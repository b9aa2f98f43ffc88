// Package testsource locates the Models.dev trees this module vendors for
// its tests: the pinned snapshot the shipped catalog is generated from
// (data/modelsdev/snapshot.tar.gz) and a 59-file sample of it
// (testdata/models-dev-sample.tar.gz). Both are archives, not loose files:
// some Models.dev file names contain ':', which Go module zips reject.
//
// The sample was packed from a Models.dev export with the same flags as
// scripts/refresh-models-snapshot uses, without its .toml filter (the sample
// keeps one file without .toml on purpose).
package testsource

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Snapshot returns the pinned Models.dev snapshot archive.
func Snapshot(t testing.TB) string { return vendored(t, "data", "modelsdev", "snapshot.tar.gz") }

// Fixture returns the sample archive.
func Fixture(t testing.TB) string { return vendored(t, "testdata", "models-dev-sample.tar.gz") }

// FixtureDir unpacks the sample into a temporary directory, for tests of
// sources on disk.
func FixtureDir(t testing.TB) string { return Unpack(t, Fixture(t)) }

func vendored(t testing.TB, rel ...string) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatalf("find the stratos-models module root: %v", err)
	}
	p := filepath.Join(append([]string{root}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("vendored Models.dev data is missing: %v", err)
	}
	return p
}

// moduleRoot walks up from the working directory (a package directory when
// tests run) to the directory holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// Unpack extracts a .tar.gz of files, directories and symbolic links into a
// new temporary directory. Archives here are the module's own, so names are
// trusted.
func Unpack(t testing.TB, archive string) string {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return dst
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := extract(dst, hdr, tr); err != nil {
			t.Fatal(err)
		}
	}
}

func extract(dst string, hdr *tar.Header, r io.Reader) error {
	p := filepath.Join(dst, filepath.FromSlash(hdr.Name))
	if hdr.Typeflag == tar.TypeDir {
		return os.MkdirAll(p, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if hdr.Typeflag == tar.TypeSymlink {
		return os.Symlink(hdr.Linkname, p)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}
