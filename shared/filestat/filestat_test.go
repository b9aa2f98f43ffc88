package filestat_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/filestat"
)

func TestReadFileReturnsContentAndStatData(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	content := strings.Repeat("x", 100_000) // larger than a small buffer
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 16)
	data, st, err := filestat.ReadFile(p, &buf)
	if err != nil || string(data) != content {
		t.Fatalf("ReadFile = %d bytes, %v; want the %d bytes written", len(data), err, len(content))
	}
	want, err := filestat.Path(p)
	if err != nil || st != want || st.Size != int64(len(content)) {
		t.Fatalf("stat data %+v, want %+v (err %v)", st, want, err)
	}
}

func TestMissingFileIsNotExist(t *testing.T) {
	p := filepath.Join(t.TempDir(), "missing")
	var buf []byte
	if _, _, err := filestat.ReadFile(p, &buf); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "read "+p) {
		t.Fatalf("ReadFile of a missing file: %v; want fs.ErrNotExist naming the path", err)
	}
	if _, err := filestat.Path(p); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Path of a missing file: %v; want fs.ErrNotExist", err)
	}
}

func TestRacy(t *testing.T) {
	scan := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	old := scan.Add(-filestat.RacyWindow - time.Nanosecond).UnixNano()
	recent := scan.Add(-filestat.RacyWindow + time.Nanosecond).UnixNano()
	for _, c := range []struct {
		name         string
		mtime, ctime int64
		racy         bool
	}{
		{"settled", old, old, false},
		{"modified just before the scan", recent, recent, true},
		{"changed (ctime) just before the scan, mtime put back", old, recent, true},
	} {
		if got := (filestat.Stat{Mtime: c.mtime, Ctime: c.ctime}).Racy(scan.UnixNano()); got != c.racy {
			t.Errorf("%s: Racy = %v, want %v", c.name, got, c.racy)
		}
	}
}

func TestReadDirListsEntriesByNameWithTheirTypes(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"b.ts", "a.ts", "sub/c.ts"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	got, err := filestat.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []filestat.DirEntry{{Name: "a.ts"}, {Name: "b.ts"}, {Name: "link", Type: fs.ModeSymlink}, {Name: "sub", Type: fs.ModeDir}}
	if len(got) != len(want) {
		t.Fatalf("ReadDir = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ReadDir = %v, want %v", got, want)
		}
	}
	if _, err := filestat.ReadDir(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadDir of a missing directory: %v; want fs.ErrNotExist", err)
	}
}

func TestReadDirOfALargeDirectory(t *testing.T) {
	dir := t.TempDir()
	const n = 1000 // more entries than one getdents buffer holds
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file-with-a-long-name-%04d.ts", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := filestat.ReadDir(dir)
	if err != nil || len(got) != n || got[0].Name != "file-with-a-long-name-0000.ts" || got[n-1].Name != "file-with-a-long-name-0999.ts" {
		t.Fatalf("ReadDir: %d entries (%v), want %d in name order", len(got), err, n)
	}
}

func TestDirStatsAndReadsItsEntries(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.ts")
	if err := os.WriteFile(p, []byte("export const a = 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := filestat.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	byPath, err := filestat.Path(p)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := d.Stat("a.ts"); err != nil || st != byPath {
		t.Fatalf("Dir.Stat = %+v, %v; want %+v", st, err, byPath)
	}
	var buf []byte
	data, st, err := d.ReadFile("a.ts", &buf)
	if err != nil || string(data) != "export const a = 1;\n" || st != byPath {
		t.Fatalf("Dir.ReadFile = %q, %+v, %v", data, st, err)
	}
	if _, _, err := d.ReadFile("missing.ts", &buf); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), filepath.Join(dir, "missing.ts")) {
		t.Fatalf("Dir.ReadFile of a missing entry: %v; want fs.ErrNotExist naming its path", err)
	}
}

// Lstat identifies the entry itself: a link to a file has stat data of its
// own, while Stat sees through it to the file.
func TestLstatDoesNotFollowALink(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.ts"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.ts", filepath.Join(dir, "link.ts")); err != nil {
		t.Fatal(err)
	}
	d, err := filestat.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	file, _ := filestat.Path(filepath.Join(dir, "a.ts"))
	link, err := filestat.Lstat(filepath.Join(dir, "link.ts"))
	if err != nil || link.Ino == file.Ino {
		t.Fatalf("Lstat of the link = %+v, %v; want the link's own inode (the file's is %d)", link, err, file.Ino)
	}
	if st, err := d.Lstat("link.ts"); err != nil || st != link {
		t.Fatalf("Dir.Lstat = %+v, %v; want %+v", st, err, link)
	}
	if st, err := d.Stat("link.ts"); err != nil || st != file {
		t.Fatalf("Dir.Stat of the link = %+v, %v; want the file's %+v", st, err, file)
	}
	if _, err := d.Lstat("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Dir.Lstat of a missing entry: %v; want fs.ErrNotExist", err)
	}
}

// A FIFO is refused at once, by ReadFile and Dir.ReadFile alike: opening it
// waited for a writer that never came, and `stratos list` hung with it.
func TestReadFileRefusesAFIFOWithoutWaiting(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "x.ts"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := filestat.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	done := make(chan [2]error, 1)
	go func() {
		var buf []byte
		_, _, err1 := filestat.ReadFile(filepath.Join(dir, "x.ts"), &buf)
		_, _, err2 := d.ReadFile("x.ts", &buf)
		done <- [2]error{err1, err2}
	}()
	select {
	case errs := <-done:
		for _, err := range errs {
			var nr *filestat.NotRegularError
			if !errors.As(err, &nr) || !strings.Contains(err.Error(), "x.ts: not a regular file (a FIFO)") {
				t.Fatalf("err = %v, want not a regular file (a FIFO)", err)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO did not return")
	}
}
