package doclinks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/testscripts/internal/clidocs"
)

// Every relative link of README.md and docs/ leads to an existing file and,
// with an #anchor, to an existing heading.
func TestDocumentationLinksResolve(t *testing.T) {
	root, err := clidocs.WorkingRepositoryRoot()
	if err != nil {
		t.Fatal(err)
	}
	pages, err := Pages(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 2 {
		t.Fatalf("found only %v: is docs/ missing?", pages)
	}
	broken, err := Check(root, pages)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		t.Error(b)
	}
}

func TestCheckFindsMissingFilesAndAnchors(t *testing.T) {
	root := t.TempDir()
	write(t, root, "README.md", "# Top\n\nSee [a](docs/a.md#the-part), [b](docs/b.md), [c](docs/a.md#nope), [d](#top), [e](https://example.invalid/x).\n"+
		"```\n[not a link](missing.md)\n```\nand `[code](missing.md)`\n")
	write(t, root, "docs/a.md", "# A\n\n## The part\n")
	broken, err := Check(root, []string{"README.md", "docs/a.md"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range broken {
		got = append(got, b.Target+": "+b.Reason)
	}
	want := []string{"docs/b.md: no such file", "docs/a.md#nope: no heading with this anchor in docs/a.md"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("broken = %q, want %q", got, want)
	}
}

func TestSlug(t *testing.T) {
	tests := []struct{ heading, want string }{
		{"Exit codes and errors", "exit-codes-and-errors"},
		{"`stratos run` — run a workflow", "stratos-run--run-a-workflow"},
		{"Admission: `~/.stratos/settings.json`", "admission-stratossettingsjson"},
		{"`stratos-discover resolve <name|path> [--json] [--project|--user]`", "stratos-discover-resolve-namepath---json---project--user"},
		{"The SDK: `@stratoscli/stratos`", "the-sdk-stratosclistratos"},
	}
	for _, tt := range tests {
		t.Run(tt.heading, func(t *testing.T) {
			if got := Slug(tt.heading); got != tt.want {
				t.Errorf("Slug(%q) = %q, want %q", tt.heading, got, tt.want)
			}
		})
	}
}

func TestAnchorsNumberRepeatedHeadings(t *testing.T) {
	got := Anchors("# Benchmark\n\n## Benchmark\n\n```\n# Benchmark\n```\n")
	if !got["benchmark"] || !got["benchmark-1"] || got["benchmark-2"] {
		t.Fatalf("anchors = %v, want benchmark and benchmark-1 only", got)
	}
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Code comments and scripts point at the repository's own documentation,
// never at documents that live outside it.
func TestCodePointsOnlyAtTheRepository(t *testing.T) {
	root, err := clidocs.WorkingRepositoryRoot()
	if err != nil {
		t.Fatal(err)
	}
	found, err := OutsidePointers(root, map[string]bool{
		// They spell out the patterns they look for.
		"testscripts/internal/doclinks/outside.go":       true,
		"testscripts/internal/doclinks/doclinks_test.go": true,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s\n\tpoint at a page under docs/ instead (design reasons go in docs/design/)", f)
	}
}

func TestOutsidePointersFindsReferencesToOutsideDocuments(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a/x.go", "// see shared/research/claude-code.md §9\n// the spec's rules\n// fine: see docs/design/worktrees.md\nfunc start(spec Spec) {} // code is not a comment\n")
	write(t, root, "scripts/tool", "# (spec \"Harness selection\")\n")
	write(t, root, "docs/design/x.md", "the spec's rules\n")
	write(t, root, "a/node_modules/p/index.js", "// the spec\n")
	found, err := OutsidePointers(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"a/x.go:1: // see shared/research/claude-code.md §9",
		"a/x.go:2: // the spec's rules",
		`scripts/tool:1: # (spec "Harness selection")`,
	}
	if strings.Join(found, "|") != strings.Join(want, "|") {
		t.Fatalf("found %q, want %q", found, want)
	}
}
