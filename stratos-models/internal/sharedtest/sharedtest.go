// Package sharedtest locates the read-only shared/ directory that sits beside
// the repository (in CI too: <repo>/../shared). Tests that need the full
// Models.dev snapshot or the research fixture use it and fail, never skip,
// when it is missing.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Path returns <repo>/../shared/<rel>, failing t when it does not exist.
func Path(t testing.TB, rel ...string) string {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(append([]string{filepath.Dir(root), "shared"}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is missing: these tests read the shared/ directory that sits beside the repository (<repo>/../shared); %v", p, err)
	}
	return p
}

// ModelsDev returns the pinned Models.dev snapshot, <repo>/../shared/models.dev.
func ModelsDev(t testing.TB) string { return Path(t, "models.dev") }

// Fixture returns the 57-file research fixture. It stays outside the Go
// module because some of its file names contain ':', which module zips reject.
func Fixture(t testing.TB) string { return Path(t, "fixtures", "models-dev-sample") }

// RepoRoot walks up from the working directory to the directory holding go.work.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
