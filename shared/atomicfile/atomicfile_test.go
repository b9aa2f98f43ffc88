package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// envWriter makes the test binary a writer process: it replaces the file
// named by the variable with subprocessVersions versions and exits.
const envWriter = "ATOMICFILE_TEST_WRITER"

const subprocessVersions = 200

func TestMain(m *testing.M) {
	if path := os.Getenv(envWriter); path != "" {
		for i := range subprocessVersions {
			if err := WriteFile(path, version(i), Public); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// version is the k-th distinct content: one repeated letter whose count
// depends on the letter, so a reader can tell a whole version from a torn or
// mixed one.
func version(k int) []byte {
	letter := byte('a' + k%26)
	return bytes.Repeat([]byte{letter}, 4096*(1+int(letter-'a')%7))
}

func whole(data []byte) bool {
	return len(data) > 0 && bytes.Equal(data, version(int(data[0]-'a')))
}

// Many goroutines and another process replace one file while a reader reads
// it in a loop: every read is one whole version, and no temp file is left.
func TestConcurrentWritersNeverTearTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "record.json")
	if err := WriteFile(path, version(0), Public); err != nil {
		t.Fatal(err)
	}
	proc := exec.Command(os.Args[0], "-test.run=^$")
	proc.Env = append(os.Environ(), envWriter+"="+path)
	proc.Stderr = os.Stderr
	if err := proc.Start(); err != nil {
		t.Fatal(err)
	}

	done := make(chan struct{})
	readerErr := make(chan error, 1)
	go func() { readerErr <- readUntil(path, done) }()

	var writers sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		writers.Go(func() {
			for i := range 100 {
				if err := WriteFile(path, version(g*100+i), Public); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	writers.Wait()
	procErr := proc.Wait()
	close(done)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if procErr != nil {
		t.Errorf("writer process: %v", procErr)
	}
	if err := <-readerErr; err != nil {
		t.Error(err)
	}
	assertOnlyTarget(t, dir, "record.json")
}

func readUntil(path string, done <-chan struct{}) error {
	for reads := 0; ; reads++ {
		select {
		case <-done:
			if reads == 0 {
				return errors.New("the reader never read")
			}
			return nil
		default:
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("read %d: %w", reads, err)
		}
		if !whole(data) {
			return fmt.Errorf("read %d saw a torn file: %d bytes starting %q", reads, len(data), data[:min(len(data), 8)])
		}
	}
}

func assertOnlyTarget(t *testing.T, dir, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != name {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// The mode is the one asked for, whatever the umask, and replacing a file
// changes its mode too: records that were 0600 become readable.
func TestModeIsExact(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []os.FileMode{Public, Private, Public} {
		if err := WriteFile(path, []byte("x"), mode); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != mode {
			t.Errorf("mode = %v, want %v", fi.Mode().Perm(), mode)
		}
	}
}

// A failing fill leaves the old content and no temp file.
func TestFailedWriteKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := WriteFile(path, []byte("old"), Public); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, Public, func(w io.Writer) error {
		if _, err := w.Write([]byte("half of the new")); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want it to wrap boom", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Errorf("content = %q, want old", data)
	}
	assertOnlyTarget(t, dir, "f")
}

func TestMissingDirectoryIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "f")
	if err := WriteFile(path, []byte("x"), Public, NoSync()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want not-exist", err)
	}
}

// RemoveTemps removes the temp files of one target (a killed writer's) and
// leaves the target, other targets' temps and other files alone.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.json")
	for _, name := range []string{"w.json", ".w.json.tmp-123", ".w.json.tmp-456", ".v.json.tmp-1", "w.json.bak"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n, err := RemoveTemps(path)
	if err != nil || n != 2 {
		t.Fatalf("RemoveTemps = %d, %v; want 2, nil", n, err)
	}
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if fmt.Sprint(left) != "[.v.json.tmp-1 w.json w.json.bak]" {
		t.Errorf("left %v", left)
	}
}
