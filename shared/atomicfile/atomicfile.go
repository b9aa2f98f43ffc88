// Package atomicfile replaces files so that a reader sees either the old
// content or the new, never part of either, even while other processes
// replace the same file: each write goes to its own temporary file in the
// target's directory, which is flushed, given its mode and renamed over the
// target, and the directory is flushed so the rename survives a power loss.
//
// Stratos runs several processes over the same files at once (concurrent
// builds of one root, agents sharing a worktree registry), so temp names are
// unique per write; a fixed name would let two writers truncate each other.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Modes for the files Stratos writes: Public for what users and other tools
// read (records, generated code, .gitignore files), Private for files a
// secret may be inside (MCP server environments and headers).
const (
	Public  fs.FileMode = 0o644
	Private fs.FileMode = 0o600
)

// tempInfix sits between the target's name and the random part of a temp
// file's name: .<name>.tmp-<random>. The leading dot keeps temp files out of
// listings of visible files.
const tempInfix = ".tmp-"

// Option changes how a write is made.
type Option func(*config)

type config struct{ sync bool }

// NoSync skips flushing the file and its directory to disk. Readers still see
// one whole version; only a power loss may bring back the previous one. For
// frequent, low-value writes where an fsync would stall on the file system's
// journal.
func NoSync() Option { return func(c *config) { c.sync = false } }

// WriteFile replaces path with data, with mode perm exactly (the umask does
// not apply: the mode is part of what Stratos promises about the file).
func WriteFile(path string, data []byte, perm fs.FileMode, opts ...Option) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, opts...)
}

// Write replaces path with what fill writes, with mode perm exactly. When
// fill or any later step fails, path is left as it was and the temp file is
// removed.
func Write(path string, perm fs.FileMode, fill func(io.Writer) error, opts ...Option) error {
	c := config{sync: true}
	for _, o := range opts {
		o(&c)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tempPrefix(path)+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := finish(tmp, perm, fill, c.sync); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if c.sync {
		if err := syncDir(dir); err != nil {
			return fmt.Errorf("write %s: flush directory: %w", path, err)
		}
	}
	return nil
}

// finish fills, chmods, flushes and closes the temp file.
func finish(f *os.File, perm fs.FileMode, fill func(io.Writer) error, sync bool) error {
	err := fill(f)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir flushes dir so that a rename into it is durable. File systems that
// cannot sync a directory say EINVAL; the rename is then as durable as they
// make it.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) {
		return nil
	}
	return err
}

func tempPrefix(path string) string { return "." + filepath.Base(path) + tempInfix }

// RemoveTemps deletes the temp files that writers of path left behind when
// they were killed before their rename, and returns how many it removed.
// Call it only while no writer of path can be running (under the lock that
// serializes them): it would remove a running writer's temp file.
func RemoveTemps(path string) (int, error) {
	entries, err := os.ReadDir(filepath.Dir(path))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("remove leftover temp files of %s: %w", path, err)
	}
	prefix, n := tempPrefix(path), 0
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		err := os.Remove(filepath.Join(filepath.Dir(path), e.Name()))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, fmt.Errorf("remove leftover temp file: %w", err)
		}
		n++
	}
	return n, nil
}
