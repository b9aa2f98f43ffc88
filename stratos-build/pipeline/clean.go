package pipeline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/manifest"
)

// CleanResult lists what a clean removed and which builds it invalidated.
type CleanResult struct {
	Removed     []string `json:"removed"`
	Invalidated []string `json:"invalidated"`
}

// CleanRoot removes every Stratos-generated artifact of a root: wrappers in
// .generated/, and each directory's compiled output (dist/) and MCP wrappers
// (generated/mcp/) — including leftovers of deleted workflows. Authored
// files, node_modules and the shared SDK are never touched; a dist/ is only
// removed where it belongs to a workflow or holds a Stratos build record.
func CleanRoot(rootDir string) (*CleanResult, error) {
	res := &CleanResult{Removed: []string{}, Invalidated: []string{}}
	if err := removeWrappers(rootDir, func(string) bool { return true }, res); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(rootDir)
	if errors.Is(err, fs.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !e.IsDir() || discovery.IsIgnoredDir(e.Name()) {
			continue
		}
		dir := filepath.Join(rootDir, e.Name())
		if !exists(filepath.Join(dir, manifest.FileName)) && !exists(filepath.Join(dir, freshness.RecordFile)) {
			continue
		}
		if err := removeArtifacts(dir, res); err != nil {
			return nil, err
		}
	}
	sort.Strings(res.Removed)
	return res, nil
}

// CleanWorkflow removes one workflow's artifacts and its wrapper, and
// removes the build records of every workflow that depends on it, so they
// rebuild against its regenerated wrapper.
func CleanWorkflow(root *discovery.Root, w *discovery.Workflow) (*CleanResult, error) {
	res := &CleanResult{Removed: []string{}, Invalidated: []string{}}
	// Resolving w scanned only its own closure; its dependents are found
	// through the references of every other workflow of the root.
	if err := root.Freshen(root.Sorted()); err != nil {
		return nil, err
	}
	if err := removeWrappers(root.Root.Dir, func(name string) bool { return name == w.Manifest.Name }, res); err != nil {
		return nil, err
	}
	if err := removeArtifacts(w.Dir, res); err != nil {
		return nil, err
	}
	for _, d := range dependents(root, w.Manifest.Name) {
		if rec, _ := freshness.ReadRecord(d.Dir); rec != nil {
			if err := freshness.RemoveRecord(d.Dir); err != nil {
				return nil, err
			}
			res.Invalidated = append(res.Invalidated, d.Manifest.Name)
		}
	}
	sort.Strings(res.Removed)
	sort.Strings(res.Invalidated)
	return res, nil
}

func removeArtifacts(dir string, res *CleanResult) error {
	for _, sub := range []string{"dist", filepath.Join("generated", "mcp")} {
		p := filepath.Join(dir, sub)
		if !exists(p) {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			return err
		}
		res.Removed = append(res.Removed, p)
	}
	// generated/ is Stratos's; drop it once it is empty.
	_ = os.Remove(filepath.Join(dir, "generated"))
	// A killed build's staging output (see staging.go).
	staged, _ := filepath.Glob(filepath.Join(dir, stagingPrefix+"*"))
	for _, p := range staged {
		if err := os.RemoveAll(p); err != nil {
			return err
		}
		res.Removed = append(res.Removed, p)
	}
	return nil
}

func removeWrappers(rootDir string, match func(name string) bool, res *CleanResult) error {
	dir := filepath.Join(rootDir, ".generated")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".ts")
		if !ok || e.IsDir() || !match(name) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if !IsGeneratedWrapper(p) {
			continue
		}
		if err := os.Remove(p); err != nil {
			return err
		}
		res.Removed = append(res.Removed, p)
	}
	return nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
