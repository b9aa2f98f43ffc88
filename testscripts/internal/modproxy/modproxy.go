// Package modproxy writes a file-based Go module proxy (a directory that
// GOPROXY=file://<dir> serves) holding this repository's modules at one
// version, built from the working tree. With it, `go install …@version` and
// `go mod tidy` resolve the modules exactly as they will once the release
// script has tagged them, before anything is pushed.
//
// Each module's zip holds the files git would tag: tracked and untracked
// files that .gitignore does not exclude, as the public proxy builds zips
// from a tag. The requirements among the repository's modules are rewritten
// to the served version, as the release script writes them before tagging.
package modproxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// Module is one module of the repository: its path and its directory
// relative to the repository root.
type Module struct {
	Path string
	Dir  string
}

// Modules reads the repository's modules from the go.mod files in dirs
// (relative to repo).
func Modules(repo string, dirs []string) ([]Module, error) {
	var mods []Module
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(repo, d, "go.mod"))
		if err != nil {
			return nil, err
		}
		p := modfile.ModulePath(data)
		if p == "" {
			return nil, fmt.Errorf("%s/go.mod has no module line", d)
		}
		mods = append(mods, Module{Path: p, Dir: d})
	}
	return mods, nil
}

// Build writes the proxy for mods of the repository at repo into out, every
// module at version.
func Build(out, repo, version string, mods []Module) error {
	if !module.IsPseudoVersion(version) && module.CanonicalVersion(version) != version {
		return fmt.Errorf("version %q is not a canonical module version (vX.Y.Z)", version)
	}
	ours := map[string]bool{}
	for _, m := range mods {
		ours[m.Path] = true
	}
	for _, m := range mods {
		if err := buildModule(out, repo, version, m, ours); err != nil {
			return fmt.Errorf("module %s: %w", m.Path, err)
		}
	}
	return nil
}

func buildModule(out, repo, version string, m Module, ours map[string]bool) error {
	escaped, err := module.EscapePath(m.Path)
	if err != nil {
		return err
	}
	dir := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	goMod, err := pinnedGoMod(filepath.Join(repo, m.Dir, "go.mod"), version, ours)
	if err != nil {
		return err
	}
	files, err := moduleFiles(repo, m.Dir)
	if err != nil {
		return err
	}
	files = append(files, memFile{name: "go.mod", data: goMod})
	var zipped bytes.Buffer
	if err := zip.Create(&zipped, module.Version{Path: m.Path, Version: version}, files); err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		version + ".mod": goMod, version + ".zip": zipped.Bytes(), version + ".info": info, "list": []byte(version + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// pinnedGoMod returns the go.mod at path with every requirement on one of
// our modules set to version.
func pinnedGoMod(path, version string, ours map[string]bool) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := modfile.Parse(path, data, nil)
	if err != nil {
		return nil, err
	}
	changed := false
	for _, r := range f.Require {
		if ours[r.Mod.Path] && r.Mod.Version != version {
			if err := f.AddRequire(r.Mod.Path, version); err != nil {
				return nil, err
			}
			changed = true
		}
	}
	if !changed {
		return data, nil // byte for byte what a tag holds
	}
	f.Cleanup()
	return f.Format()
}

// RequiredVersion returns the one version at which mods require each other,
// read from their go.mod files; it is an error when they disagree or none
// requires another.
func RequiredVersion(repo string, mods []Module) (string, error) {
	ours := map[string]bool{}
	for _, m := range mods {
		ours[m.Path] = true
	}
	seen := map[string]string{} // version → one requirement that names it
	for _, m := range mods {
		path := filepath.Join(repo, m.Dir, "go.mod")
		data, err := os.ReadFile(path)
		if err != nil {
			return "", err
		}
		f, err := modfile.ParseLax(path, data, nil)
		if err != nil {
			return "", err
		}
		for _, r := range f.Require {
			if ours[r.Mod.Path] {
				seen[r.Mod.Version] = m.Dir + " requires " + r.Mod.String()
			}
		}
	}
	if len(seen) == 1 {
		return slices.Collect(maps.Keys(seen))[0], nil
	}
	reasons := slices.Sorted(maps.Values(seen))
	return "", fmt.Errorf("the modules must require each other at one version; found %d: %s", len(seen), strings.Join(reasons, "; "))
}

// moduleFiles lists the files of the module in repo/dir that a tag would
// hold, go.mod excepted (the caller adds the pinned one). Like the go
// command, it adds the repository's LICENSE to a module that has none.
func moduleFiles(repo, dir string) ([]zip.File, error) {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".")
	cmd.Dir = filepath.Join(repo, dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	listed, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list the files of %s with git (the proxy is built from a git checkout): %v: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	var files []zip.File
	haveLicense := false
	seen := map[string]bool{} // git lists a file with a merge conflict once per side
	for _, rel := range strings.Split(strings.TrimSuffix(string(listed), "\x00"), "\x00") {
		if rel == "" || rel == "go.mod" || seen[rel] {
			continue
		}
		seen[rel] = true
		full := filepath.Join(repo, dir, filepath.FromSlash(rel))
		info, err := os.Lstat(full)
		if errors.Is(err, fs.ErrNotExist) {
			continue // tracked, deleted in the working tree
		}
		if err != nil {
			return nil, err
		}
		haveLicense = haveLicense || rel == "LICENSE"
		files = append(files, diskFile{rel: rel, full: full, info: info})
	}
	if !haveLicense {
		if data, err := os.ReadFile(filepath.Join(repo, "LICENSE")); err == nil {
			files = append(files, memFile{name: "LICENSE", data: data})
		}
	}
	return files, nil
}

type diskFile struct {
	rel, full string
	info      fs.FileInfo
}

func (f diskFile) Path() string                 { return f.rel }
func (f diskFile) Lstat() (fs.FileInfo, error)  { return f.info, nil }
func (f diskFile) Open() (io.ReadCloser, error) { return os.Open(f.full) }

type memFile struct {
	name string
	data []byte
}

func (f memFile) Path() string                 { return f.name }
func (f memFile) Lstat() (fs.FileInfo, error)  { return memInfo{f}, nil }
func (f memFile) Open() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(f.data)), nil }

type memInfo struct{ f memFile }

func (i memInfo) Name() string       { return path.Base(i.f.name) }
func (i memInfo) Size() int64        { return int64(len(i.f.data)) }
func (i memInfo) Mode() fs.FileMode  { return 0o644 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
