package pipeline

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// A shared compiler run writes the compiled files of every job of a batch
// under one scratch directory, mirroring the root; each job's staging
// directory must receive exactly the compiled files of its own closure.
// They are moved, not copied: creating a file is most of what placing it
// costs (on ext4 without a journal, each new inode is searched past every
// inode deleted in the last minute, and a cold build deletes the scratch
// directory and the dist/ trees it replaces), and a rename creates nothing.
// The directory of a workflow whose compiled files no other job shares and
// which holds nothing else is moved whole; a file that several jobs'
// closures share is copied for all but the last, which takes it.

// emittedFiles maps each compiled file of the jobs' closures (relative to
// the scratch directory, slash-separated) to how many jobs need it.
type emittedFiles map[string]int

// emittedBy counts the compiled files of closures.
func emittedBy(closures [][]string) emittedFiles {
	files := emittedFiles{}
	for _, closure := range closures {
		for _, js := range compiledFiles(closure) {
			files[js]++
		}
	}
	return files
}

// compiledFiles lists what tsc writes for the sources of closure.
func compiledFiles(closure []string) []string {
	var out []string
	for _, rel := range closure {
		if js, ok := emittedName(rel); ok {
			out = append(out, js)
		}
	}
	return out
}

// place moves the compiled files of closure from scratch into dst, each
// top-level directory in one rename when nothing in it is shared (see
// above), else file by file.
func (files emittedFiles) place(scratch, dst string, closure []string) error {
	byTop := map[string][]string{}
	for _, js := range compiledFiles(closure) {
		top, _, _ := strings.Cut(js, "/")
		byTop[top] = append(byTop[top], js)
	}
	for _, top := range slices.Sorted(maps.Keys(byTop)) {
		mine := byTop[top]
		if files.ownsWhole(scratch, top, mine) {
			if err := moveFile(filepath.Join(scratch, top), filepath.Join(dst, top)); err == nil {
				files.release(mine)
				continue
			}
		}
		for _, js := range mine {
			if err := files.placeFile(scratch, dst, js); err != nil {
				return err
			}
		}
	}
	return nil
}

// ownsWhole reports whether scratch/top holds exactly mine, compiled
// files no other job needs: then the directory can move whole.
func (files emittedFiles) ownsWhole(scratch, top string, mine []string) bool {
	if !strings.Contains(mine[0], "/") {
		return false // a file at the root's top level, not a directory
	}
	for _, js := range mine {
		if files[js] != 1 {
			return false
		}
	}
	var found []string
	err := filepath.WalkDir(filepath.Join(scratch, top), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(scratch, p)
			found = append(found, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return false
	}
	want := slices.Clone(mine)
	slices.Sort(want)
	slices.Sort(found)
	return slices.Equal(want, found)
}

// release counts mine as placed.
func (files emittedFiles) release(mine []string) {
	for _, js := range mine {
		files[js]--
	}
}

// placeFile gives dst the compiled file js: the last job to need it takes
// it, the others get a copy.
func (files emittedFiles) placeFile(scratch, dst, js string) error {
	from := filepath.Join(scratch, filepath.FromSlash(js))
	to := filepath.Join(dst, filepath.FromSlash(js))
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	files[js]--
	if files[js] == 0 && moveFile(from, to) == nil {
		return nil
	}
	data, err := os.ReadFile(from)
	if err != nil {
		return fmt.Errorf("the shared compiler run did not emit %s: %w", js, err)
	}
	return os.WriteFile(to, data, 0o644)
}

// moveFile renames from to to, which must not exist.
func moveFile(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(to); err == nil {
		return fmt.Errorf("%s already exists", to)
	}
	return os.Rename(from, to)
}

// emittedName is the file tsc writes for the source rel; false for
// declaration files, which emit nothing.
func emittedName(rel string) (string, bool) {
	for _, d := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(rel, d) {
			return "", false
		}
	}
	ext := path.Ext(rel)
	js := map[string]string{".ts": ".js", ".mts": ".mjs", ".cts": ".cjs", ".tsx": ".js"}[ext]
	if js == "" {
		return "", false
	}
	return strings.TrimSuffix(rel, ext) + js, true
}
