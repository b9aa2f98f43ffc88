package filestat_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
