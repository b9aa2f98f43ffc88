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
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
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

// Lstat returns the stat data of p itself, not following a symbolic link:
// they identify the directory entry, so they change when p is replaced,
// even by a link to what it was.
func Lstat(p string) (Stat, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(p, &st)
		if err == nil {
			return Of(&st), nil
		}
		if err != syscall.EINTR {
			return Stat{}, &pathError{op: "lstat", path: p, err: err}
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
	return readFD(fd, p, buf)
}

// readFD reads the open file fd (named p in errors) as ReadFile does, and
// closes it.
func readFD(fd int, p string, buf *[]byte) ([]byte, Stat, error) {
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := fstat(fd, &st); err != nil {
		return nil, Stat{}, &pathError{op: "stat", path: p, err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, Stat{}, &pathError{op: "read", path: p, err: &NotRegularError{Mode: st.Mode}}
	}
	b := (*buf)[:0]
	if want := int(st.Size) + 1; cap(b) < want {
		b = make([]byte, 0, want) // +1: the read that sees the end needs room
	}
	// A regular file is read up to the size stat reported, which saves the
	// read that would only find its end. Content appended meanwhile is not
	// seen, but it changed the stat data: nothing cached vouches for it.
	// A size of 0 (empty, or a file system that does not know) reads to
	// the end.
	for st.Size == 0 || int64(len(b)) < st.Size {
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

// open opens p for ReadFile. O_NONBLOCK makes opening a FIFO return at
// once instead of waiting for a writer (which may never come: a FIFO named
// like a source file hung `stratos list` and `stratos build` for good, deaf
// to SIGTERM); readFD then refuses anything but a regular file. It changes
// nothing for a regular file.
func open(p string) (int, error) {
	return openFlags(p, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK)
}

func openFlags(p string, flags int) (int, error) {
	for {
		fd, err := syscall.Open(p, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// DirEntry is one entry of a directory, typed by the directory listing
// itself (no stat call): Type is 0 for a regular file, else fs.ModeDir,
// fs.ModeSymlink or another type bit.
type DirEntry struct {
	Name string
	Type fs.FileMode
}

// ReadDir returns the entries of the directory at p sorted by name, like
// os.ReadDir, with plain open/getdents system calls for the reason given
// at ReadFile. Entries whose type the file system does not report are
// typed with lstat.
func ReadDir(p string) ([]DirEntry, error) {
	d, err := OpenDir(p)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Entries()
}

// Dir is an open directory whose entries can be listed, stat'ed and read
// relative to it: the kernel then resolves one path component per call
// instead of every component of an absolute path, which is most of what
// a stat call costs in a deep tree.
type Dir struct {
	fd   int
	path string
}

// OpenDir opens the directory at p (following a symbolic link). Close it.
func OpenDir(p string) (*Dir, error) {
	fd, err := openFlags(p, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC)
	if err != nil {
		return nil, &pathError{op: "open", path: p, err: err}
	}
	return &Dir{fd: fd, path: p}, nil
}

// Self returns the stat data of the directory itself. Taken before its
// entries are read, they change with any entry added, removed or renamed
// after that point (git's untracked cache rests on the same fact).
func (d *Dir) Self() (Stat, error) {
	var st syscall.Stat_t
	if err := fstat(d.fd, &st); err != nil {
		return Stat{}, &pathError{op: "stat", path: d.path, err: err}
	}
	return Of(&st), nil
}

// Close releases the directory.
func (d *Dir) Close() { _ = syscall.Close(d.fd) }

// Entries returns the directory's entries sorted by name.
func (d *Dir) Entries() ([]DirEntry, error) {
	var out []DirEntry
	buf := make([]byte, 16<<10)
	for {
		n, err := syscall.Getdents(d.fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &pathError{op: "readdirent", path: d.path, err: err}
		}
		if n <= 0 {
			break
		}
		if out, err = d.appendDirents(out, buf[:n]); err != nil {
			return nil, err
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Stat is Path for the entry name of the directory.
func (d *Dir) Stat(name string) (Stat, error) { return d.statat("stat", name, 0) }

// Lstat is Lstat for the entry name of the directory.
func (d *Dir) Lstat(name string) (Stat, error) {
	return d.statat("lstat", name, unix.AT_SYMLINK_NOFOLLOW)
}

func (d *Dir) statat(op, name string, flags int) (Stat, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, flags)
		if err == nil {
			return ofUnix(&st), nil
		}
		if err != unix.EINTR {
			return Stat{}, &pathError{op: op, path: d.path + string(os.PathSeparator) + name, err: err}
		}
	}
}

// ReadFile is ReadFile for the entry name of the directory.
func (d *Dir) ReadFile(name string, buf *[]byte) ([]byte, Stat, error) {
	p := d.path + string(os.PathSeparator) + name
	for {
		fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0) // see open
		if err == nil {
			return readFD(fd, p, buf)
		}
		if err != unix.EINTR {
			return nil, Stat{}, &pathError{op: "read", path: p, err: err}
		}
	}
}

func ofUnix(st *unix.Stat_t) Stat {
	return Stat{
		Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size,
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(),
	}
}

// appendDirents parses linux_dirent64 records (inode u64, offset s64,
// record length u16, type u8, NUL-terminated name).
func (d *Dir) appendDirents(out []DirEntry, b []byte) ([]DirEntry, error) {
	for len(b) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			return out, &pathError{op: "readdirent", path: d.path, err: syscall.EIO}
		}
		typ, name := b[18], b[19:reclen]
		b = b[reclen:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if s := string(name); s != "." && s != ".." {
			t, err := d.direntType(typ, s)
			if err != nil {
				return out, err
			}
			out = append(out, DirEntry{Name: s, Type: t})
		}
	}
	return out, nil
}

func (d *Dir) direntType(typ byte, name string) (fs.FileMode, error) {
	switch typ {
	case syscall.DT_REG:
		return 0, nil
	case syscall.DT_DIR:
		return fs.ModeDir, nil
	case syscall.DT_LNK:
		return fs.ModeSymlink, nil
	case syscall.DT_UNKNOWN:
		var st unix.Stat_t
		if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return 0, &pathError{op: "lstat", path: d.path + string(os.PathSeparator) + name, err: err}
		}
		return modeType(st.Mode), nil
	}
	return fs.ModeIrregular, nil
}

func modeType(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}

// NotRegularError is what ReadFile says of a FIFO, a device, a directory or
// a socket, which it does not read.
type NotRegularError struct {
	Mode uint32 // st_mode
}

func (e *NotRegularError) Error() string {
	switch e.Mode & syscall.S_IFMT {
	case syscall.S_IFIFO:
		return "not a regular file (a FIFO)"
	case syscall.S_IFDIR:
		return "not a regular file (a directory)"
	case syscall.S_IFCHR, syscall.S_IFBLK:
		return "not a regular file (a device)"
	case syscall.S_IFSOCK:
		return "not a regular file (a socket)"
	}
	return fmt.Sprintf("not a regular file (mode %o)", e.Mode)
}
