package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
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
// One fsync per file is what this costs: on a cold build of 200
// workflows (some 1,600 files and directories) the fsyncs took about a
// second of system CPU and, with other processes writing, longer than the
// compile. A batch therefore writes its files unflushed and makes all of
// them durable with one syncfs(2) per file system before renaming any of
// them into dist/, and the renames with another: two waits instead of
// 1,600, each file written back once. syncfs also writes back what other
// processes left dirty on that file system; measured, that was still far
// less than the fsyncs. A build of one workflow flushes its few files one
// by one (syncTree).

// flushWidth is how many fsyncs syncPaths keeps in flight: they wait on
// the disk, not the CPU.
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

// syncFileSystems makes everything written to the file systems that hold
// dirs durable, with one syncfs(2) per file system.
func syncFileSystems(dirs []string) error {
	seen := map[uint64]bool{}
	for _, dir := range dirs {
		var st unix.Stat_t
		if err := unix.Stat(dir, &st); err != nil {
			return fmt.Errorf("flush %s to disk: %w", dir, err)
		}
		if seen[st.Dev] {
			continue
		}
		seen[st.Dev] = true
		if err := syncfs(dir); err != nil {
			return err
		}
	}
	return nil
}

func syncfs(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("flush %s to disk: %w", dir, err)
	}
	defer f.Close()
	if err := unix.Syncfs(int(f.Fd())); err != nil {
		return fmt.Errorf("flush %s to disk: %w", dir, err)
	}
	return nil
}

// writeBehind writes a batch's files back to disk while the batch still
// writes more, so that the flush before publishing (syncFileSystems)
// finds little left to write: that flush is a wait of its own after the
// last definition has loaded, 50 to 370 ms for 200 workflows, where
// writing back beside the loader costs the build no wait. Every
// writeBehindEvery nudges (a workflow's files were written), it runs one
// syncfs(2) of the root's file system, unless one is running, which then
// covers them. It only writes earlier what the flush before publishing
// writes anyway; that flush still runs and reports any error.
type writeBehind struct {
	dir     string
	written atomic.Int64
	nudges  chan struct{}
	quit    chan struct{}
	done    chan struct{}
}

// writeBehindEvery is how many workflows' files one write-back waits for:
// a syncfs costs about half a millisecond of system CPU even when little
// is dirty, and one per workflow (183 for 200, measured) cost more CPU
// than the flush it saved.
const writeBehindEvery = 16

// startWriteBehind starts writing back the file system that holds dir.
func startWriteBehind(dir string) *writeBehind {
	wb := &writeBehind{dir: dir, nudges: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go wb.run()
	return wb
}

func (wb *writeBehind) run() {
	defer close(wb.done)
	for {
		select {
		case <-wb.quit:
			return
		case <-wb.nudges:
			select {
			case <-wb.quit:
				return
			default:
			}
			_ = syncfs(wb.dir) // the flush before publishing reports errors
		}
	}
}

// nudge says that one more workflow's files were written. It never
// blocks, and does nothing once stopped.
func (wb *writeBehind) nudge() {
	if wb.written.Add(1)%writeBehindEvery != 0 {
		return
	}
	select {
	case wb.nudges <- struct{}{}:
	default:
	}
}

// stop stops writing back and returns once a syncfs under way is over.
func (wb *writeBehind) stop() {
	close(wb.quit)
	<-wb.done
}
