package clidocs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The committed command reference and man pages must be what the commands
// say today: a flag added without regenerating fails here.
func TestCommittedReferenceIsCurrent(t *testing.T) {
	root, err := WorkingRepositoryRoot()
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	stale, err := Stale(root, files)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Fatalf("%s and %s are stale (%s): %s", CLIDir, ManDir, strings.Join(stale, ", "), RegenerateHint)
	}
}

func TestStaleFindsChangedMissingAndExtraFiles(t *testing.T) {
	files, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := Write(root, files); err != nil {
		t.Fatal(err)
	}
	if stale, err := Stale(root, files); err != nil || len(stale) != 0 {
		t.Fatalf("right after Write: stale = %v, err = %v", stale, err)
	}
	changed := filepath.Join(root, CLIDir, "stratos-run.md")
	if err := os.WriteFile(changed, []byte("edited by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, ManDir, "stratos-build.1")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ManDir, "stratos-gone.1"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	stale, err := Stale(root, files)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{CLIDir + "/stratos-run.md", ManDir + "/stratos-build.1", ManDir + "/stratos-gone.1 (not generated any more)"}
	if strings.Join(stale, "|") != strings.Join(want, "|") {
		t.Fatalf("stale = %q, want %q", stale, want)
	}
	// Write repairs all three, the extra file included.
	if err := Write(root, files); err != nil {
		t.Fatal(err)
	}
	if stale, _ := Stale(root, files); len(stale) != 0 {
		t.Fatalf("after a second Write: stale = %v", stale)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Path != b[i].Path || !bytes.Equal(a[i].Content, b[i].Content) {
			t.Fatalf("%s differs between two runs", a[i].Path)
		}
	}
}

func TestGenerateDocumentsVisibleCommandsOnly(t *testing.T) {
	files, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	page := content(t, files, CLIDir+"/stratos-build.md")
	if !strings.Contains(page, "### `build` command") {
		t.Errorf("stratos-build.md does not document build:\n%s", page)
	}
	if strings.Contains(page, "`prepare`") {
		t.Errorf("stratos-build.md documents the hidden prepare command")
	}
	man := content(t, files, ManDir+"/stratos-run.1")
	for _, want := range []string{".TH stratos-run 1", `<workflow|path>`, "Exit codes: 0 success"} {
		if !strings.Contains(man, want) {
			t.Errorf("stratos-run.1 lacks %q", want)
		}
	}
	if !strings.Contains(content(t, files, CLIDir+"/stratos.md"), "`run` command") {
		t.Errorf("stratos.md does not list the dispatcher's run command")
	}
}

func content(t *testing.T, files []File, path string) string {
	t.Helper()
	for _, f := range files {
		if f.Path == path {
			return string(f.Content)
		}
	}
	t.Fatalf("Generate produced no %s", path)
	return ""
}

func TestEscapeAngles(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"placeholder in text", "recorded in ~/.stratos/runs/<execution-id>/", `recorded in ~/.stratos/runs/\<execution-id\>/`},
		{"code span untouched", "use `<name>` or <name>", "use `<name>` or \\<name\\>"},
		{"block quote marker kept", "> stratos run <workflow|path>", `> stratos run \<workflow|path\>`},
		{"fenced block untouched", "```\nstratos run <workflow>\n```", "```\nstratos run <workflow>\n```"},
		{"indented code untouched", "    stratos models generate --source <dir>", "    stratos models generate --source <dir>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := escapeAngles(tt.in); got != tt.want {
				t.Errorf("escapeAngles(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
