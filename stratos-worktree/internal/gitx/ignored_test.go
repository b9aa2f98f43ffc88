package gitx

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestIgnoredListsWholeDirectoriesOnce(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		".gitignore":          ".env\nnode_modules/\nsecrets/\n*.log\n",
		"src/main.ts":         "tracked",
		".env":                "KEY=1",
		"node_modules/p/i.js": "dep",
		"secrets/a/key":       "k",
		"src/run.log":         "log",
		"src/new.ts":          "untracked, not ignored",
	}
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "init", "-q")
	run(t, dir, "add", ".gitignore", "src/main.ts")
	g := &Git{}
	got, err := g.Ignored(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".env", "node_modules/", "secrets/", "src/run.log"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Ignored = %q, want %q", got, want)
	}
}
