// Package memfs is a read-only file system held in memory that keeps
// symbolic links as links. It lets the generator read a Models.dev snapshot
// straight out of a compressed archive with the same code, and the same link
// rules, it uses for a checkout on disk (os.DirFS).
package memfs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// maxLinkHops bounds how many links Open and Stat follow, as the kernel does.
const maxLinkHops = 40

// FS implements fs.FS, fs.ReadDirFS, fs.ReadFileFS, fs.StatFS and
// fs.ReadLinkFS. Build it with Add*, then only read it.
type FS struct {
	nodes map[string]*node // by clean slash path; "." is the root
}

type node struct {
	name     string // base name
	mode     fs.FileMode
	data     []byte // regular files
	target   string // symbolic links
	children map[string]*node
}

// New returns an FS holding only an empty root directory.
func New() *FS {
	return &FS{nodes: map[string]*node{".": {name: ".", mode: fs.ModeDir | 0o555, children: map[string]*node{}}}}
}

// AddFile adds a regular file; missing parent directories are created.
func (f *FS) AddFile(name string, data []byte) error {
	return f.add(name, &node{mode: 0o444, data: data})
}

// AddSymlink adds a symbolic link to target, stored as written.
func (f *FS) AddSymlink(name, target string) error {
	return f.add(name, &node{mode: fs.ModeSymlink | 0o777, target: target})
}

// AddDir adds a directory; adding an existing directory again is allowed.
func (f *FS) AddDir(name string) error {
	if n, ok := f.nodes[name]; ok && n.mode.IsDir() {
		return nil
	}
	return f.add(name, &node{mode: fs.ModeDir | 0o555, children: map[string]*node{}})
}

func (f *FS) add(name string, n *node) error {
	if !fs.ValidPath(name) || name == "." {
		return fmt.Errorf("memfs: invalid path %q", name)
	}
	if _, exists := f.nodes[name]; exists {
		return fmt.Errorf("memfs: %s added twice", name)
	}
	dir := path.Dir(name)
	if err := f.AddDir(dir); err != nil {
		return err
	}
	parent := f.nodes[dir]
	if !parent.mode.IsDir() {
		return fmt.Errorf("memfs: %s: parent %s is not a directory", name, dir)
	}
	n.name = path.Base(name)
	parent.children[n.name] = n
	f.nodes[name] = n
	return nil
}

// Lstat describes name without following a final symbolic link.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	n, err := f.lookup("lstat", name, false)
	if err != nil {
		return nil, err
	}
	return info{n}, nil
}

// Stat describes name, following symbolic links.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	n, err := f.lookup("stat", name, true)
	if err != nil {
		return nil, err
	}
	return info{n}, nil
}

// ReadLink returns the target of the symbolic link name.
func (f *FS) ReadLink(name string) (string, error) {
	n, err := f.lookup("readlink", name, false)
	if err != nil {
		return "", err
	}
	if n.mode&fs.ModeSymlink == 0 {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	return n.target, nil
}

// ReadFile returns a copy of the content of name, following links.
func (f *FS) ReadFile(name string) ([]byte, error) {
	n, err := f.lookup("read", name, true)
	if err != nil {
		return nil, err
	}
	if n.mode.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	}
	return bytes.Clone(n.data), nil
}

// ReadDir lists the directory name sorted by file name.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	n, err := f.lookup("readdir", name, true)
	if err != nil {
		return nil, err
	}
	if !n.mode.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	return n.entries(), nil
}

// Open opens name for reading, following links.
func (f *FS) Open(name string) (fs.File, error) {
	n, err := f.lookup("open", name, true)
	if err != nil {
		return nil, err
	}
	if n.mode.IsDir() {
		return &dirFile{node: n, entries: n.entries()}, nil
	}
	return &file{node: n, Reader: bytes.NewReader(n.data)}, nil
}

// lookup finds name, following links in directory components always and in
// the final component when follow is set. Links resolve relative to their
// directory and may not leave the file system.
func (f *FS) lookup(op, name string, follow bool) (*node, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	cur, hops := ".", 0
	rest := strings.Split(name, "/")
	if name == "." {
		rest = nil
	}
	for len(rest) > 0 {
		next := path.Join(cur, rest[0])
		rest = rest[1:]
		n, ok := f.nodes[next]
		if !ok {
			return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
		if n.mode&fs.ModeSymlink == 0 || (len(rest) == 0 && !follow) {
			cur = next
			continue
		}
		if hops++; hops > maxLinkHops {
			return nil, &fs.PathError{Op: op, Path: name, Err: errors.New("too many levels of symbolic links")}
		}
		target := path.Join(cur, n.target)
		if path.IsAbs(n.target) || !fs.ValidPath(target) {
			return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
		if target != "." {
			rest = append(strings.Split(target, "/"), rest...)
		}
		cur = "."
	}
	return f.nodes[cur], nil
}

func (n *node) entries() []fs.DirEntry {
	out := make([]fs.DirEntry, 0, len(n.children))
	for _, c := range n.children {
		out = append(out, fs.FileInfoToDirEntry(info{c}))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// info is the fs.FileInfo of a node; an archive's times are not kept.
type info struct{ n *node }

func (i info) Name() string       { return i.n.name }
func (i info) Size() int64        { return int64(len(i.n.data)) }
func (i info) Mode() fs.FileMode  { return i.n.mode }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return i.n.mode.IsDir() }
func (i info) Sys() any           { return nil }

type file struct {
	node *node
	*bytes.Reader
}

func (f *file) Stat() (fs.FileInfo, error) { return info{f.node}, nil }
func (f *file) Close() error               { return nil }

type dirFile struct {
	node    *node
	entries []fs.DirEntry
	offset  int
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return info{d.node}, nil }
func (d *dirFile) Close() error               { return nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.node.name, Err: errors.New("is a directory")}
}

// ReadDir follows fs.ReadDirFile: n <= 0 returns the rest, n > 0 returns at
// most n entries and io.EOF at the end.
func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.offset:]
	if n <= 0 {
		d.offset = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	if n > len(rest) {
		n = len(rest)
	}
	d.offset += n
	return rest[:n], nil
}
