package boundedread

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// tooLarge returns the *TooLargeError in err, failing the test when there
// is none.
func tooLarge(t *testing.T, err error) *TooLargeError {
	t.Helper()
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("err = %v, want a *TooLargeError", err)
	}
	return tl
}

func TestRegularFilesUpToTheLimit(t *testing.T) {
	for _, read := range map[string]func(string, int64) ([]byte, error){
		"File":        func(p string, l int64) ([]byte, error) { return File(context.Background(), p, l) },
		"RegularFile": RegularFile,
	} {
		path := writeFile(t, "12345")
		if got, err := read(path, 5); err != nil || string(got) != "12345" {
			t.Errorf("at the limit: %q, %v", got, err)
		}
		_, err := read(path, 4)
		if tl := tooLarge(t, err); tl.Size != 5 || tl.Limit != 4 {
			t.Errorf("over the limit: %+v", tl)
		}
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != path || err.Error() != "read "+path+": 5 bytes, over the limit of 4 bytes" {
			t.Errorf("error = %q, want it to name %s, the size and the limit", err, path)
		}
		if _, err := read(filepath.Join(t.TempDir(), "missing"), 5); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a missing file: %v", err)
		}
	}
}

// A device that never ends is read up to the limit, not to the end of
// memory.
func TestFileStopsAnEndlessDeviceAtTheLimit(t *testing.T) {
	_, err := File(context.Background(), "/dev/zero", 1<<20)
	if tl := tooLarge(t, err); tl.Size != 0 || tl.Limit != 1<<20 {
		t.Errorf("%+v", tl)
	}
	if want := "read /dev/zero: more than the limit of 1 MiB (reading stopped there)"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func TestFileReadsAFIFOToItsEnd(t *testing.T) {
	path := mkfifo(t)
	go func() {
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return // the read fails and says why
		}
		defer w.Close()
		_, _ = w.Write([]byte(`{"a":1}`))
	}()
	got, err := File(context.Background(), path, 100)
	if err != nil || string(got) != `{"a":1}` {
		t.Errorf("%q, %v", got, err)
	}
}

func TestFileStopsAnEndlessFIFOAtTheLimit(t *testing.T) {
	path := mkfifo(t)
	go func() {
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		chunk := bytes.Repeat([]byte("x"), 4096)
		for {
			if _, err := w.Write(chunk); err != nil {
				return // the reader is gone
			}
		}
	}()
	_, err := File(context.Background(), path, 64<<10)
	tooLarge(t, err)
}

// A FIFO whose writer never opens it: the read ends when ctx does.
func TestCancelEndsAWaitForAFIFOsWriter(t *testing.T) {
	path := mkfifo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := File(ctx, path, 100); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	// The abandoned open waits for a writer: be one, so it ends.
	if w, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
		w.Close()
	}
}

// A FIFO whose writer opens it but never writes: the blocked read ends
// when ctx does.
func TestCancelEndsABlockedFIFORead(t *testing.T) {
	path := mkfifo(t)
	ctx, cancel := context.WithCancel(context.Background())
	writerOpen := make(chan *os.File, 1)
	go func() {
		w, err := os.OpenFile(path, os.O_WRONLY, 0) // returns once File opened the FIFO
		if err != nil {
			t.Error(err)
		}
		writerOpen <- w
		cancel()
	}()
	if _, err := File(ctx, path, 100); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if w := <-writerOpen; w != nil {
		w.Close()
	}
}

func TestCancelEndsABlockedReader(t *testing.T) {
	t.Run("pipe", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		defer w.Close()
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			_, _ = w.Write([]byte("partial, never ending"))
			cancel()
		}()
		if _, err := Reader(ctx, r, 1<<20); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
	t.Run("reader without a deadline", func(t *testing.T) {
		r, w := io.Pipe()
		defer w.Close() // ends the read left behind
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Reader(ctx, r, 1<<20); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

func TestReaderLimits(t *testing.T) {
	if got, err := Reader(context.Background(), bytes.NewReader([]byte("abc")), 3); err != nil || string(got) != "abc" {
		t.Errorf("at the limit: %q, %v", got, err)
	}
	_, err := Reader(context.Background(), bytes.NewReader([]byte("abcd")), 3)
	if tl := tooLarge(t, err); tl.Size != 0 || err.Error() != "more than the limit of 3 bytes (reading stopped there)" {
		t.Errorf("%+v: %v", tl, err)
	}
}

// RegularFile never opens what could block, and says what it found.
func TestRegularFileRefusesFIFOsAndDevices(t *testing.T) {
	fifo := mkfifo(t)
	for path, want := range map[string]string{
		fifo:        "read " + fifo + ": not a regular file (a FIFO)",
		"/dev/null": "read /dev/null: not a regular file (a device)",
		t.TempDir(): "not a regular file (a directory)",
	} {
		_, err := RegularFile(path, 100)
		var nr *NotRegularError
		if !errors.As(err, &nr) || !bytes.HasSuffix([]byte(err.Error()), []byte(want)) {
			t.Errorf("RegularFile(%s) = %v, want %q", path, err, want)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 1536: "1.5 KiB", 4 << 20: "4 MiB",
		20<<20 + 300<<10: "20.3 MiB", 3 << 30: "3 GiB", 5 << 40: "5 TiB", 5 << 50: "5120 TiB",
	} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// Just over the limit, the sizes are given in bytes: both would round to
// the same figure.
func TestTooLargeSaysByHowMuch(t *testing.T) {
	for e, want := range map[TooLargeError]string{
		{Limit: 4 << 20, Size: 4<<20 + 8}: "4194312 bytes, over the limit of 4194304 bytes (4 MiB)",
		{Limit: 4 << 20, Size: 5 << 20}:   "5 MiB, over the limit of 4 MiB",
		{Limit: 4 << 20}:                  "more than the limit of 4 MiB (reading stopped there)",
	} {
		if got := e.Error(); got != want {
			t.Errorf("%+v: %q, want %q", e, got, want)
		}
	}
}
