package modelsdev

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// packDir writes dir as a .tar.gz (links kept as links) and returns its path.
func packDir(t *testing.T, dir string) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		link := ""
		if d.Type()&fs.ModeSymlink != 0 {
			if link, err = os.Readlink(p); err != nil {
				return err
			}
		}
		hdr, err := tar.FileInfoHeader(info, link)
		if err != nil {
			return err
		}
		hdr.Name = "./" + filepath.ToSlash(rel)
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			_, err = tw.Write(data)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return writeArchive(t, tw, gz, &buf)
}

func writeArchive(t *testing.T, tw *tar.Writer, gz *gzip.Writer, buf *bytes.Buffer) string {
	t.Helper()
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "source.tar.gz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// archiveOf packs the given headers (file content from contents) as a .tar.gz.
func archiveOf(t *testing.T, hdrs []tar.Header, contents map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, h := range hdrs {
		h.Size = int64(len(contents[h.Name]))
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(contents[h.Name])); err != nil {
			t.Fatal(err)
		}
	}
	return writeArchive(t, tw, gz, &buf)
}

func TestOpenRefusesWhatIsNotASource(t *testing.T) {
	plain := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	notGzip := filepath.Join(t.TempDir(), "bad.tar.gz")
	if err := os.WriteFile(notGzip, []byte("this text is not a gzip stream"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		path string
		want string
	}{
		"missing":       {filepath.Join(t.TempDir(), "gone"), "no such file"},
		"plain file":    {plain, "neither a directory nor a .tar.gz archive"},
		"not gzip":      {notGzip, "bad.tar.gz: gzip: invalid header"},
		"escaping name": {archiveOf(t, []tar.Header{{Name: "../x.toml", Typeflag: tar.TypeReg}}, nil), `entry "../x.toml": name is not a path inside the archive`},
		"absolute name": {archiveOf(t, []tar.Header{{Name: "/etc/x.toml", Typeflag: tar.TypeReg}}, nil), "name is not a path inside the archive"},
		"hard link":     {archiveOf(t, []tar.Header{{Name: "a.toml", Typeflag: tar.TypeLink, Linkname: "b.toml"}}, nil), "unsupported entry type"},
		"duplicate": {archiveOf(t, []tar.Header{{Name: "a.toml", Typeflag: tar.TypeReg}, {Name: "a.toml", Typeflag: tar.TypeReg}}, nil),
			"a.toml added twice"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Open(c.path)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Open error = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestArchiveRevision(t *testing.T) {
	files := map[string]string{"REVISION": "f3fc692299671838c7c65fd8126bf84d81a2e817 2026-07-02T00:40:28+08:00\nanomalyco/models.dev\n"}
	with := archiveOf(t, []tar.Header{{Name: "REVISION", Typeflag: tar.TypeReg}}, files)
	rev, err := ReadRevision(context.Background(), open(t, with))
	if err != nil || rev.Commit != "f3fc692299671838c7c65fd8126bf84d81a2e817" || rev.Date != "2026-07-02T00:40:28+08:00" {
		t.Errorf("revision = %+v, %v", rev, err)
	}
	without := archiveOf(t, []tar.Header{{Name: "LICENSE", Typeflag: tar.TypeReg}}, map[string]string{"LICENSE": "MIT License\n"})
	if _, err := ReadRevision(context.Background(), open(t, without)); err == nil || !strings.Contains(err.Error(), "the archive has no REVISION file") {
		t.Errorf("archive without REVISION: %v", err)
	}
	if got := ReadLicense(open(t, without)); got != "MIT License" {
		t.Errorf("license = %q", got)
	}
}
