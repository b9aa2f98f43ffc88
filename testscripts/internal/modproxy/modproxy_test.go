package modproxy

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repo makes a git repository with modules a (requiring b) and b.
func repo(t *testing.T, bVersion string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"LICENSE":             "license text\n",
		".gitignore":          "node_modules/\n",
		"a/go.mod":            "module example.com/r/a\n\ngo 1.26\n\nrequire (\n\texample.com/r/b " + bVersion + "\n\texample.com/other v1.2.3\n)\n",
		"a/a.go":              "package a\n",
		"a/node_modules/x.js": "ignored\n",
		"a/nested/go.mod":     "module example.com/r/a/nested\n",
		"a/nested/n.go":       "package nested\n",
		"b/go.mod":            "module example.com/r/b\n\ngo 1.26\n",
		"b/b.go":              "package b\n",
		"b/LICENSE":           "b's own\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := exec.Command("git", "init", "-q")
	git.Dir = dir
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	return dir
}

func TestRequiredVersion(t *testing.T) {
	mods := []Module{{"example.com/r/a", "a"}, {"example.com/r/b", "b"}}
	if v, err := RequiredVersion(repo(t, "v0.3.0"), mods); err != nil || v != "v0.3.0" {
		t.Errorf("RequiredVersion = %q, %v; want v0.3.0", v, err)
	}
	if _, err := RequiredVersion(repo(t, "v0.3.0"), mods[1:]); err == nil {
		t.Error("no module requires another: want an error")
	}
}

// The zip holds what a tag would: untracked files unless ignored, no nested
// module, the repository's LICENSE where the module has none; go.mod
// requires our modules at the served version and leaves others alone.
func TestBuildServesTheTreeAtTheVersion(t *testing.T) {
	dir := repo(t, "v0.3.0")
	out := t.TempDir()
	mods := []Module{{"example.com/r/a", "a"}, {"example.com/r/b", "b"}}
	if err := Build(out, dir, "v0.4.0", mods); err != nil {
		t.Fatal(err)
	}
	at := filepath.Join(out, "example.com", "r", "a", "@v")
	mod, err := os.ReadFile(filepath.Join(at, "v0.4.0.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mod), "example.com/r/b v0.4.0") || !strings.Contains(string(mod), "example.com/other v1.2.3") {
		t.Errorf("a's go.mod:\n%s", mod)
	}
	if list, _ := os.ReadFile(filepath.Join(at, "list")); string(list) != "v0.4.0\n" {
		t.Errorf("list = %q", list)
	}
	if got := zipNames(t, filepath.Join(at, "v0.4.0.zip")); !slices.Equal(got, []string{"LICENSE", "a.go", "go.mod"}) {
		t.Errorf("a's zip holds %v", got)
	}
	b := filepath.Join(out, "example.com", "r", "b", "@v")
	mod, _ = os.ReadFile(filepath.Join(b, "v0.4.0.mod"))
	if string(mod) != "module example.com/r/b\n\ngo 1.26\n" {
		t.Errorf("b's go.mod changed: %q", mod)
	}
	if got := zipNames(t, filepath.Join(b, "v0.4.0.zip")); !slices.Equal(got, []string{"LICENSE", "b.go", "go.mod"}) {
		t.Errorf("b's zip holds %v", got)
	}
}

func zipNames(t *testing.T, path string) []string {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var names []string
	for _, f := range r.File {
		_, rel, _ := strings.Cut(f.Name, "@v0.4.0/")
		names = append(names, rel)
	}
	slices.Sort(names)
	return names
}
