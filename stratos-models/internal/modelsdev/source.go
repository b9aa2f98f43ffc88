package modelsdev

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/stratos-models/internal/memfs"
)

// maxArchiveBytes bounds what an archive may unpack to in memory. The pinned
// snapshot unpacks to about 10 MB; the bound only stops a corrupt or hostile
// archive from exhausting memory.
const maxArchiveBytes = 512 << 20

// Source is a Models.dev tree opened for reading: a checkout or exported
// snapshot on disk, or a .tar.gz of one read into memory. Symbolic links are
// kept as links either way, so both follow the same link rules.
type Source struct {
	fsys fs.FS  // rooted at the tree
	name string // the directory or archive, as messages show it
	dir  string // the directory on disk; "" for an archive (no git to ask)
}

// isArchive reports whether path names a gzip-compressed tar archive.
func isArchive(path string) bool {
	return strings.HasSuffix(path, ".tar.gz") || strings.HasSuffix(path, ".tgz")
}

// Open opens a source directory, or reads a .tar.gz archive into memory.
func Open(path string) (*Source, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("open Models.dev source: %w", err)
	}
	if fi.IsDir() {
		return &Source{fsys: os.DirFS(path), name: path, dir: path}, nil
	}
	if !isArchive(path) {
		return nil, fmt.Errorf("source %s is neither a directory nor a .tar.gz archive of a Models.dev tree", path)
	}
	fsys, err := readArchive(path)
	if err != nil {
		return nil, err
	}
	return &Source{fsys: fsys, name: path}, nil
}

// where names rel inside the source for messages.
func (s *Source) where(rel string) string { return filepath.Join(s.name, filepath.FromSlash(rel)) }

// readArchive unpacks a .tar.gz into memory. Entry names are taken relative
// to the archive root (a leading "./" is dropped); anything but files,
// directories and symbolic links is refused, as are names leaving the root.
func readArchive(name string) (*memfs.FS, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("open Models.dev archive: %w", err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	fsys, err := unpackTar(tar.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return fsys, nil
}

func unpackTar(tr *tar.Reader) (*memfs.FS, error) {
	fsys := memfs.New()
	var total int64
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return fsys, nil
		}
		if err != nil {
			return nil, err
		}
		rel := path.Clean(strings.TrimPrefix(hdr.Name, "./"))
		if rel == "." && hdr.Typeflag == tar.TypeDir {
			continue
		}
		if !fs.ValidPath(rel) || rel == "." {
			return nil, fmt.Errorf("entry %q: name is not a path inside the archive", hdr.Name)
		}
		if total += hdr.Size; total > maxArchiveBytes {
			return nil, fmt.Errorf("archive unpacks to more than %d bytes", maxArchiveBytes)
		}
		if err := addEntry(fsys, tr, hdr, rel); err != nil {
			return nil, fmt.Errorf("entry %s: %w", rel, err)
		}
	}
}

func addEntry(fsys *memfs.FS, tr *tar.Reader, hdr *tar.Header, rel string) error {
	switch hdr.Typeflag {
	case tar.TypeDir:
		return fsys.AddDir(rel)
	case tar.TypeSymlink:
		return fsys.AddSymlink(rel, hdr.Linkname)
	case tar.TypeReg:
		data, err := io.ReadAll(io.LimitReader(tr, hdr.Size))
		if err != nil {
			return err
		}
		return fsys.AddFile(rel, data)
	}
	return fmt.Errorf("unsupported entry type %q (only files, directories and symbolic links)", hdr.Typeflag)
}
