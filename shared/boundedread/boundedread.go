// Package boundedread reads what a user names or controls — a file, a
// FIFO, a character device, standard input — with a size limit, so that
// `--input @/dev/zero` or a runaway file ends in an error that names the
// limit instead of taking the machine's memory; and, where a read can block
// (a FIFO whose writer never writes, a terminal, a stdin that never ends),
// under a context, so that Ctrl-C or SIGTERM ends the command at once.
//
// File is for what a command line names (`--input @path`): anything that
// can be opened is read, bounded. RegularFile is for files found by
// convention (workflow.yaml, settings.json, a test script) and read where
// no context reaches: it refuses anything but a regular file, whose reads
// cannot block, rather than risk a read nothing could end.
package boundedread

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

// TooLargeError is content larger than the limit it was read with.
type TooLargeError struct {
	// Limit is the limit in bytes.
	Limit int64
	// Size is the content's size in bytes when it was known before
	// reading (a regular file's); 0 when reading stopped at the limit.
	Size int64
}

func (e *TooLargeError) Error() string {
	size, limit := FormatSize(e.Size), FormatSize(e.Limit)
	if size == limit { // just over: "4 MiB, over the limit of 4 MiB" would say nothing
		size, limit = fmt.Sprintf("%d bytes", e.Size), fmt.Sprintf("%d bytes (%s)", e.Limit, limit)
	}
	if e.Size > 0 {
		return fmt.Sprintf("%s, over the limit of %s", size, limit)
	}
	return fmt.Sprintf("more than the limit of %s (reading stopped there)", FormatSize(e.Limit))
}

// NotRegularError is a file RegularFile refuses: a FIFO, a device, a
// directory or a socket.
type NotRegularError struct {
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return "not a regular file (" + kind(e.Mode) + ")"
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// FormatSize writes n bytes for people: "512 bytes", "4 MiB", "20.3 MiB".
func FormatSize(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	f, unit := float64(n)/1024, "KiB"
	for _, u := range []string{"MiB", "GiB", "TiB"} {
		if f < 1024 {
			break
		}
		f, unit = f/1024, u
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", f), ".0") + " " + unit
}

// File reads the file at path, at most limit bytes: a larger one is a
// *TooLargeError (inside an *fs.PathError naming path). A regular file is
// read at once, its size checked before reading. Anything else that opens
// — a FIFO, a character device — is read until its end or the limit, and
// a read that blocks (a FIFO whose writer never opens or never writes, a
// terminal) ends as soon as ctx does, with ctx's error.
func File(ctx context.Context, path string, limit int64) ([]byte, error) {
	// A FIFO is found without opening it: opening it, even without
	// waiting, would count as its reader, and a writer that wrote and
	// closed meanwhile would have written to nobody.
	if fi, err := os.Stat(path); err == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
		return readFIFO(ctx, path, limit)
	}
	f, fi, err := open(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode().IsRegular() || fi.IsDir() {
		defer f.Close()
		return readFile(f, path, limit, fi.Size())
	}
	return await(ctx, func() ([]byte, error) {
		defer f.Close()
		return readFile(f, path, limit, 0)
	}, func() bool { return f.SetReadDeadline(time.Now()) == nil })
}

// RegularFile reads the regular file at path (symbolic links followed), at
// most limit bytes: a larger one is a *TooLargeError, anything but a
// regular file a *NotRegularError, both inside an *fs.PathError naming
// path. Nothing it does can block.
func RegularFile(path string, limit int64) ([]byte, error) {
	f, fi, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &NotRegularError{Mode: fi.Mode()}}
	}
	return readFile(f, path, limit, fi.Size())
}

// Reader reads r to its end, at most limit bytes (more is a
// *TooLargeError). A read that blocks ends as soon as ctx does, with ctx's
// error: r's read is interrupted when r has a read deadline that can be
// set (a pipe, a FIFO or a terminal this process opened), and is otherwise
// left to end with the process, which is about to exit (the standard
// input a shell passed down cannot be interrupted).
func Reader(ctx context.Context, r io.Reader, limit int64) ([]byte, error) {
	return await(ctx, func() ([]byte, error) { return readAtMost(r, limit, 0) }, func() bool {
		d, ok := r.(interface{ SetReadDeadline(time.Time) error })
		return ok && d.SetReadDeadline(time.Now()) == nil
	})
}

// open opens path for reading without waiting for a FIFO's writer (where
// no context could end the wait), and returns its file information.
func open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// readFIFO opens the FIFO at path the ordinary way, which waits for its
// writer (opened without waiting, a FIFO reads as empty until a writer
// comes), and reads it, under ctx.
func readFIFO(ctx context.Context, path string, limit int64) ([]byte, error) {
	var (
		mu     sync.Mutex
		opened *os.File
	)
	return await(ctx, func() ([]byte, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		mu.Lock()
		opened = f
		mu.Unlock()
		return readFile(f, path, limit, 0)
	}, func() bool {
		// A FIFO os.Open opened is pollable: its read ends at the deadline.
		// Still waiting in open, it is left to end with the process.
		mu.Lock()
		defer mu.Unlock()
		return opened != nil && opened.SetReadDeadline(time.Now()) == nil
	})
}

// await runs read in a goroutine of its own and returns its result, or
// ctx's error once ctx is done. Then stop is called to end the read: when
// it reports that the read will end, await waits for it, so that nothing
// is left reading; otherwise the read is left behind.
func await(ctx context.Context, read func() ([]byte, error), stop func() bool) ([]byte, error) {
	if ctx.Done() == nil {
		return read()
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := read()
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		if stop() {
			<-done
		}
		return nil, ctx.Err()
	}
}

// readFile reads an open file, naming path in errors.
func readFile(f *os.File, path string, limit, size int64) ([]byte, error) {
	if size > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Limit: limit, Size: size}}
	}
	data, err := readAtMost(f, limit, size)
	if _, tooLarge := err.(*TooLargeError); tooLarge {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return data, err // os's errors name the path already
}

// readAtMost reads r to its end, failing once more than limit bytes
// came; size is how much to expect (0: unknown).
func readAtMost(r io.Reader, limit, size int64) ([]byte, error) {
	var buf bytes.Buffer
	// bytes.MinRead more than expected lets the last read see the end
	// without growing the buffer.
	buf.Grow(int(min(size, limit)) + bytes.MinRead)
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, &TooLargeError{Limit: limit}
	}
	return buf.Bytes(), nil
}
