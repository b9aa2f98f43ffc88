// Package filestat is git's index technique for knowing that a file is
// unchanged without reading it: the stat data that identify a file's
// content (size, modification and change times in nanoseconds, inode,
// device), the "racily clean" rule that says when they cannot vouch for it,
// and reads that take those data before the content.
//
// The build's stat cache (shared/freshness) and the installed SDK's
// integrity check (shared/sdk) both use it.
package filestat

import (
	"fmt"
	"syscall"
	"time"
)

// Stat is the stat data that identify a file's content. The change time is
// set by the kernel on every write, rename onto the path and timestamp
// change, so an edit is seen even when it keeps the size and puts the
// modification time back, and a file replaced by rename has a new inode.
type Stat struct {
	Dev   uint64 `json:"dev"`
	Ino   uint64 `json:"ino"`
	Size  int64  `json:"size"`
	Mtime int64  `json:"mtime"` // nanoseconds
	Ctime int64  `json:"ctime"` // nanoseconds
}

// Of returns the identifying part of a stat(2) result.
func Of(st *syscall.Stat_t) Stat {
	return Stat{
		Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size,
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(),
	}
}

// RacyWindow is how close to the start of the scan that recorded a file's
// stat data its modification or change time may be before those data do
// not vouch for the content read with them: within one timestamp tick of
// the scan the file could have changed again after it was read without its
// stat data changing (git's "racily clean" entries). Two seconds covers the
// coarsest timestamps of common file systems (FAT); on nanosecond file
// systems only files changed in the two seconds before a scan are affected.
const RacyWindow = 2 * time.Second

// Racy reports whether s was taken too close to scannedAt (Unix
// nanoseconds, when the recording scan started) to vouch for the content
// read with it. A cache must neither record nor trust racy entries.
func (s Stat) Racy(scannedAt int64) bool {
	limit := scannedAt - int64(RacyWindow)
	return s.Mtime >= limit || s.Ctime >= limit
}

// Path returns the stat data of the file at p, following symbolic links
// (what reading p sees).
func Path(p string) (Stat, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(p, &st)
		if err == nil {
			return Of(&st), nil
		}
		if err != syscall.EINTR {
			return Stat{}, &pathError{op: "stat", path: p, err: err}
		}
	}
}

// ReadFile reads the file at p into *buf (grown as needed) and returns the
// content, valid until the next call with the same buffer, and the file's
// stat data taken before the first read: a change after that point changes
// them, so they can never vouch for content that was not read.
//
// It uses plain open/read system calls: os.Open also registers every file
// with the runtime's poller (fcntl, epoll_ctl), which for thousands of
// small regular files cost a third of `stratos list`'s time.
func ReadFile(p string, buf *[]byte) ([]byte, Stat, error) {
	fd, err := open(p)
	if err != nil {
		return nil, Stat{}, &pathError{op: "read", path: p, err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := fstat(fd, &st); err != nil {
		return nil, Stat{}, &pathError{op: "stat", path: p, err: err}
	}
	b := (*buf)[:0]
	if want := int(st.Size) + 1; cap(b) < want {
		b = make([]byte, 0, want) // +1: the read that sees the end needs room
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := syscall.Read(fd, b[len(b):cap(b)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, Stat{}, &pathError{op: "read", path: p, err: err}
		}
		if n == 0 {
			break
		}
		b = b[:len(b)+n]
	}
	*buf = b
	return b, Of(&st), nil
}

// pathError reads like os.PathError ("read /x: no such file or
// directory") and unwraps to the errno, so errors.Is(err, fs.ErrNotExist)
// holds.
type pathError struct {
	op, path string
	err      error
}

func (e *pathError) Error() string { return fmt.Sprintf("%s %s: %v", e.op, e.path, e.err) }
func (e *pathError) Unwrap() error { return e.err }

func fstat(fd int, st *syscall.Stat_t) error {
	for {
		if err := syscall.Fstat(fd, st); err != syscall.EINTR {
			return err
		}
	}
}

func open(p string) (int, error) {
	for {
		fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
