package trash

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func write(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, rel := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(rel), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var at = time.Date(2026, 12, 3, 9, 5, 7, 123e6, time.UTC)

func TestKeepMovesOnlyWhatIsNotRegenerable(t *testing.T) {
	checkout, bin := t.TempDir(), filepath.Join(t.TempDir(), "trash")
	write(t, checkout, ".env", "app/secrets/key", "app/dist/out.js", "node_modules/p/i.js", "deep/build/x.o", "deep/.cache/c")
	ignored := []string{"node_modules/", "deep/build/", "deep/.cache/", "app/secrets/", ".env", "app/dist/out.js"}

	kept, err := Keep(checkout, ignored, bin, "agent", at)
	if err != nil {
		t.Fatal(err)
	}
	want := &Kept{Path: filepath.Join(bin, "agent-20261203T090507.123Z"), Files: []string{".env", "app/secrets/"}}
	if !reflect.DeepEqual(kept, want) {
		t.Fatalf("kept = %+v, want %+v", kept, want)
	}
	for _, rel := range []string{".env", "app/secrets/key"} {
		if data, err := os.ReadFile(filepath.Join(kept.Path, rel)); err != nil || string(data) != rel {
			t.Errorf("trash %s = %q, %v", rel, data, err)
		}
		if _, err := os.Stat(filepath.Join(checkout, rel)); !os.IsNotExist(err) {
			t.Errorf("%s is still in the checkout: %v", rel, err)
		}
	}
	for _, rel := range []string{"app/dist/out.js", "node_modules/p/i.js", "deep/build/x.o"} {
		if _, err := os.Stat(filepath.Join(checkout, rel)); err != nil {
			t.Errorf("regenerable %s was moved: %v", rel, err)
		}
	}
	if fi, err := os.Stat(kept.Path); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("trash directory mode = %v, %v; want 0700", fi.Mode().Perm(), err)
	}
}

func TestKeepWithNothingToKeepMakesNoTrash(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "trash")
	kept, err := Keep(t.TempDir(), []string{"node_modules/", "dist/", "x/.generated/"}, bin, "n", at)
	if err != nil || kept != nil {
		t.Fatalf("Keep = %+v, %v; want nil, nil", kept, err)
	}
	if _, err := os.Stat(bin); !os.IsNotExist(err) {
		t.Errorf("trash was created: %v", err)
	}
}

func TestKeepReportsWhatMovedBeforeAFailure(t *testing.T) {
	checkout, bin := t.TempDir(), filepath.Join(t.TempDir(), "trash")
	write(t, checkout, "a.local")
	kept, err := Keep(checkout, []string{"a.local", "gone.local"}, bin, "n", at)
	if err == nil {
		t.Fatal("moving a file that does not exist succeeded")
	}
	if kept == nil || !reflect.DeepEqual(kept.Files, []string{"a.local"}) {
		t.Fatalf("kept = %+v, want a.local reported", kept)
	}
}

func TestRegenerable(t *testing.T) {
	for rel, want := range map[string]bool{
		"node_modules/":            true,
		"a/node_modules/x/y.js":    true,
		"dist/":                    true,
		"dist":                     false, // a file named dist is not a directory
		"a/dist.txt":               false,
		".generated/types.ts":      true,
		".env":                     false,
		"app/secrets/":             false,
		"src/__pycache__/m.pyc":    true,
		"node_modules_backup/x.js": false,
	} {
		if got := regenerable(rel); got != want {
			t.Errorf("regenerable(%q) = %v, want %v", rel, got, want)
		}
	}
}

func TestPruneDeletesOnlyOldTrash(t *testing.T) {
	bin := t.TempDir()
	old := "a-b-20261118T090507.122Z" // 15 days before at
	young := "c-20261120T090507.123Z" // 13 days before at
	write(t, bin, old+"/x", young+"/x", "notes/x", "plain-file")
	removed, err := Prune(bin, at.Add(-MaxAge))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(removed, []string{filepath.Join(bin, old)}) {
		t.Errorf("removed = %v", removed)
	}
	for _, name := range []string{young, "notes", "plain-file"} {
		if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
			t.Errorf("%s was pruned: %v", name, err)
		}
	}
	if removed, err := Prune(filepath.Join(bin, "missing"), at); err != nil || len(removed) != 0 {
		t.Errorf("missing trash: %v, %v", removed, err)
	}
}
