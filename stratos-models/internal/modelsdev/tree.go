// Package modelsdev reads a Models.dev source tree (a checkout, an exported
// snapshot, or a .tar.gz of either): canonical models under
// models/<creator>/<model>.toml and provider offerings under
// providers/<provider>/models/<native-id>.toml. It reports what it could not
// use (dangling symlinks, files without .toml) instead of guessing, and it
// never derives a link from a file name: that is the generator's rule, and it
// only sees the base_model value read here.
package modelsdev

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Tree is what Read found in a source.
type Tree struct {
	Canonical []Canonical // sorted by ID
	Providers []Provider  // sorted by ID
	Offerings []Offering  // sorted by provider, then native ID
	Dangling  []Dangling  // sorted by path
	Ignored   []string    // files that are not .toml, sorted
}

// Canonical is one models/<creator>/<model>.toml file.
type Canonical struct {
	ID   string // <creator>/<model>
	Path string // slash path relative to the source root
	File CanonicalFile
}

// Provider is one providers/<id>/provider.toml.
type Provider struct {
	ID   string
	Name string
}

// Offering is one provider model file. Only base_model and cost are kept:
// nothing else in a provider file may create or change a mapping, and the
// price is the provider's, not the canonical model's.
type Offering struct {
	Provider string
	NativeID string // path below providers/<p>/models/ without .toml; may contain / : @ ~
	Path     string // slash path relative to the source root
	Resolved string // the file actually read, when Path is a symlink or link stub
	// BaseModel is the top-level base_model value as decoded (usually a
	// string), or nil when the file has none.
	BaseModel any
	// Cost is the [cost] table as decoded (dollars per million tokens),
	// or nil when the file has none.
	Cost any
}

// Dangling is a symlink (or link stub) whose target cannot be used.
type Dangling struct {
	Path   string `json:"path"`
	Target string `json:"target"`
	Reason string `json:"reason"`
}

// Read decodes the tree of src. A file that does not decode is an error:
// its base_model cannot be known, so the catalog would be silently
// incomplete.
func Read(src *Source) (*Tree, error) {
	r := &reader{src: src}
	canonicalFiles, err := r.tomlFiles("models")
	if err != nil {
		return nil, err
	}
	if len(canonicalFiles) == 0 {
		return nil, fmt.Errorf("no canonical models: %s has no .toml files (is --source a Models.dev checkout?)", src.where("models"))
	}
	t := &Tree{}
	if t.Providers, err = r.providers(); err != nil {
		return nil, err
	}
	var offeringFiles []string
	for _, p := range t.Providers {
		files, err := r.tomlFiles(path.Join("providers", p.ID, "models"))
		if err != nil {
			return nil, err
		}
		offeringFiles = append(offeringFiles, files...)
	}
	if t.Canonical, err = r.canonical(canonicalFiles, parseAll[CanonicalFile](r, canonicalFiles)); err != nil {
		return nil, err
	}
	if t.Offerings, err = r.offerings(offeringFiles, parseAll[offeringFile](r, offeringFiles)); err != nil {
		return nil, err
	}
	t.Dangling, t.Ignored = r.dangling, r.ignored
	sort.Slice(t.Dangling, func(i, j int) bool { return t.Dangling[i].Path < t.Dangling[j].Path })
	sort.Strings(t.Ignored)
	return t, nil
}

type reader struct {
	src      *Source
	dangling []Dangling
	ignored  []string
}

// tomlFiles lists the .toml entries (regular files and symlinks) below dir,
// as slash paths relative to the root, and records other files as ignored.
func (r *reader) tomlFiles(dir string) ([]string, error) {
	var files []string
	err := fs.WalkDir(r.src.fsys, dir, func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if strings.HasSuffix(rel, ".toml") {
			files = append(files, rel)
		} else {
			r.ignored = append(r.ignored, rel)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", r.src.where(dir), err)
	}
	return files, nil
}

// parsedFile is the outcome of reading and decoding one file.
type parsedFile[T any] struct {
	value    T
	resolved string    // set when the file was reached through a link
	dangling *Dangling // set when a link could not be followed
	err      error
}

// parseAll reads and decodes files on all CPUs; reading thousands of small
// files is dominated by system calls, and the results keep input order so
// the outcome does not depend on scheduling.
func parseAll[T any](r *reader, files []string) []parsedFile[T] {
	out := make([]parsedFile[T], len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = parse[T](r, files[i])
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// parse reads rel (following links) and decodes it into a T.
func parse[T any](r *reader, rel string) parsedFile[T] {
	content, resolved, d := r.readResolved(rel)
	if d != nil {
		if d.Reason == reasonUnreadable {
			return parsedFile[T]{err: fmt.Errorf("read %s: %s", r.src.where(d.Target), d.Reason)}
		}
		return parsedFile[T]{dangling: d}
	}
	var value T
	if err := decodeStrict(r.src.where(resolved), content, &value); err != nil {
		return parsedFile[T]{err: err}
	}
	if resolved == rel {
		resolved = ""
	}
	return parsedFile[T]{value: value, resolved: resolved}
}

// usable records a dangling link and reports whether f has a value.
func usable[T any](r *reader, f parsedFile[T]) (bool, error) {
	if f.err != nil {
		return false, f.err
	}
	if f.dangling != nil {
		r.dangling = append(r.dangling, *f.dangling)
		return false, nil
	}
	return true, nil
}

func (r *reader) canonical(files []string, parsed []parsedFile[CanonicalFile]) ([]Canonical, error) {
	var out []Canonical
	for i, f := range files {
		id := strings.TrimSuffix(strings.TrimPrefix(f, "models/"), ".toml")
		if strings.Count(id, "/") != 1 {
			return nil, fmt.Errorf("canonical model file %s: ID %q must have the form <creator>/<model>", r.src.where(f), id)
		}
		ok, err := usable(r, parsed[i])
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, Canonical{ID: id, Path: f, File: parsed[i].value})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// providers lists the directories under providers/ that have a provider.toml.
func (r *reader) providers() ([]Provider, error) {
	entries, err := fs.ReadDir(r.src.fsys, "providers")
	if err != nil {
		return nil, fmt.Errorf("read providers: %w", err)
	}
	var out []Provider
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		rel := path.Join("providers", e.Name(), "provider.toml")
		if _, err := fs.Stat(r.src.fsys, rel); errors.Is(err, fs.ErrNotExist) {
			r.ignored = append(r.ignored, path.Join("providers", e.Name())+"/")
			continue
		}
		f := parse[providerFile](r, rel)
		ok, err := usable(r, f)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if f.value.Name == nil || *f.value.Name == "" {
			return nil, fmt.Errorf("provider file %s: name must be a non-empty string", r.src.where(rel))
		}
		out = append(out, Provider{ID: e.Name(), Name: *f.value.Name})
	}
	return out, nil
}

func (r *reader) offerings(files []string, parsed []parsedFile[offeringFile]) ([]Offering, error) {
	var out []Offering
	for i, f := range files {
		ok, err := usable(r, parsed[i])
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		// providers/<p>/models/<native-id>.toml; split on the first
		// "/models/" after the provider, since native IDs may contain "models".
		provider, rest, _ := strings.Cut(strings.TrimPrefix(f, "providers/"), "/")
		out = append(out, Offering{
			Provider:  provider,
			NativeID:  strings.TrimSuffix(strings.TrimPrefix(rest, "models/"), ".toml"),
			Path:      f,
			Resolved:  parsed[i].resolved,
			BaseModel: parsed[i].value.BaseModel,
			Cost:      parsed[i].value.Cost,
		})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Provider != out[j].Provider {
			return out[i].Provider < out[j].Provider
		}
		return out[i].NativeID < out[j].NativeID
	})
	return out, nil
}
