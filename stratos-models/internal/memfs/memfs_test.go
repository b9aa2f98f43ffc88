package memfs

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

func build(t *testing.T) *FS {
	t.Helper()
	f := New()
	for _, err := range []error{
		f.AddFile("a/b/file.toml", []byte("x = 1\n")),
		f.AddFile("a/other:name.toml", []byte("y = 2\n")),
		f.AddSymlink("a/link.toml", "b/file.toml"),
		f.AddSymlink("c/up.toml", "../a/link.toml"),
		f.AddSymlink("c/dir", "../a/b"),
		f.AddSymlink("c/dangling.toml", "gone.toml"),
		f.AddSymlink("c/outside.toml", "../../etc/passwd"),
		f.AddSymlink("c/loop.toml", "loop.toml"),
		f.AddDir("empty"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func TestSatisfiesFSContract(t *testing.T) {
	f := New()
	if err := f.AddFile("a/b/file.toml", []byte("x = 1\n")); err != nil {
		t.Fatal(err)
	}
	if err := f.AddSymlink("a/link.toml", "b/file.toml"); err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(f, "a/b/file.toml", "a/link.toml"); err != nil {
		t.Fatal(err)
	}
}

func TestLinksFollowOnlyWhenAsked(t *testing.T) {
	f := build(t)
	fi, err := f.Lstat("c/up.toml")
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("Lstat(c/up.toml) = %v, %v; want a link", fi, err)
	}
	if target, err := f.ReadLink("c/up.toml"); err != nil || target != "../a/link.toml" {
		t.Errorf("ReadLink = %q, %v", target, err)
	}
	for _, name := range []string{"c/up.toml", "a/link.toml", "c/dir/file.toml"} {
		data, err := f.ReadFile(name)
		if err != nil || string(data) != "x = 1\n" {
			t.Errorf("ReadFile(%s) = %q, %v", name, data, err)
		}
	}
	if _, err := f.ReadLink("a/b/file.toml"); err == nil {
		t.Error("ReadLink of a regular file succeeded")
	}
}

func TestBrokenLinksDoNotResolve(t *testing.T) {
	f := build(t)
	for _, name := range []string{"c/dangling.toml", "c/outside.toml", "c/loop.toml"} {
		if _, err := f.Stat(name); err == nil {
			t.Errorf("Stat(%s) succeeded", name)
		}
		if _, err := f.Lstat(name); err != nil {
			t.Errorf("Lstat(%s): %v", name, err)
		}
	}
	if _, err := f.Stat("c/dangling.toml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dangling: %v, want ErrNotExist", err)
	}
}

func TestReadDirIsSortedAndKeepsLinkType(t *testing.T) {
	entries, err := fs.ReadDir(build(t), "c")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		if e.Type()&fs.ModeSymlink == 0 {
			t.Errorf("%s lost its link type", e.Name())
		}
	}
	want := "dangling.toml dir loop.toml outside.toml up.toml"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("entries = %s, want %s", got, want)
	}
}

func TestAddRejectsDuplicatesAndBadPaths(t *testing.T) {
	f := build(t)
	if err := f.AddFile("a/b/file.toml", nil); err == nil {
		t.Error("duplicate file accepted")
	}
	if err := f.AddFile("a/b/file.toml/x", nil); err == nil {
		t.Error("file below a file accepted")
	}
	for _, bad := range []string{"/abs", "../up", "a//b", "."} {
		if err := f.AddFile(bad, nil); err == nil {
			t.Errorf("AddFile(%q) accepted", bad)
		}
	}
}
