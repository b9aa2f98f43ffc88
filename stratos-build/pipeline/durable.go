package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// A build publishes its output by renaming a staging directory to dist/
// (see staging). For a crash to leave each workflow's dist/ either the
// complete old build or the complete new one, everything inside the
// staging directory (compiled modules, stat cache, record, and the
// directories that hold them) must be on disk before the rename, and the
// rename itself must be on disk before the build reports success: that is
// an fsync of every file and directory of the staging tree, then one of
// the workflow directory after the rename.
//
// Each fsync waits for the file system's journal to commit, and on a
// cold build of many workflows those waits, one after the other, took
// longer than the compile. A batch therefore writes its files without
// flushing them and then flushes all of them at once, many fsyncs in
// flight together: the journal commits them in a few shared transactions.
// The order (contents, rename, directory) stays what it is for one
// workflow.

// flushWidth is how many fsyncs a batch keeps in flight. They wait on the
// disk, not the CPU, so far more than the cores; past a few dozen the
// journal's shared commits gain nothing more.
const flushWidth = 32

// syncTree fsyncs every file and directory under dir, dir included.
func syncTree(dir string) error {
	return syncPaths(treePaths(dir))
}

// treePaths lists dir and everything under it, files before the
// directories that hold them.
func treePaths(dir string) []string {
	var files, dirs []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			files = append(files, p) // syncPath reports it
		case d.IsDir():
			dirs = append(dirs, p)
		case d.Type().IsRegular():
			files = append(files, p)
		}
		return nil
	})
	return append(files, dirs...)
}

// syncPaths fsyncs each path, up to flushWidth at a time, and returns the
// first error.
func syncPaths(paths []string) error {
	if len(paths) == 1 {
		return syncPath(paths[0])
	}
	errs := make([]error, len(paths))
	runWide(len(paths), flushWidth, func(i int) { errs[i] = syncPath(paths[i]) })
	return errors.Join(errs...)
}

// syncPath fsyncs one file or directory. A file system that cannot fsync
// directories (EINVAL) has nothing more to flush for them.
func syncPath(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("flush %s to disk: %w", p, err)
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("flush %s to disk: %w", p, err)
	}
	return nil
}
