package freshness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func keyOf(t *testing.T, dir string) string {
	t.Helper()
	src, err := ScanSources(dir)
	if err != nil {
		t.Fatal(err)
	}
	return Parts{Toolchain: CurrentToolchain(), Files: src.Files}.Key()
}

func TestScanSourcesSelectsAuthoredFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "wf")
	write(t, dir, "workflow.yaml", "name: wf\n")
	write(t, dir, "workflow.ts", `import c from "../.generated/child.js"; import "./lib/x.js";`)
	write(t, dir, "lib/x.mts", `import d from "../../.generated/other.js";`)
	write(t, dir, "lib/y.cts", "")
	write(t, dir, "package.json", "{}")
	write(t, dir, "package-lock.json", "{}")
	write(t, dir, "lib/package.json", "{}")      // only the top-level one counts
	write(t, dir, "README.md", "")               // not a source
	write(t, dir, "dist/wf/workflow.ts", "")     // compiled output
	write(t, dir, "generated/mcp/x.ts", "")      // generated
	write(t, dir, "node_modules/p/index.ts", "") // installed
	write(t, dir, "lib/node_modules/p/i.ts", "") // installed, deeper
	write(t, dir, ".cache/x.ts", "")             // dot-directory
	write(t, dir, "lib/dist/kept.ts", "")        // dist/ only matters at the top
	src, err := ScanSources(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range src.Files {
		got = append(got, f.Path)
	}
	want := []string{"lib/dist/kept.ts", "lib/x.mts", "lib/y.cts", "package-lock.json", "package.json", "workflow.ts", "workflow.yaml"}
	if len(got) != len(want) {
		t.Fatalf("files = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("files = %q, want %q", got, want)
		}
	}
	if len(src.References) != 2 || src.References[0] != "child" || src.References[1] != "other" {
		t.Fatalf("references = %q", src.References)
	}
	if src.ImportedBy["other"] != filepath.Join(dir, "lib", "x.mts") {
		t.Fatalf("imported by = %q", src.ImportedBy["other"])
	}
}

func TestKeyChanges(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "wf")
	write(t, dir, "workflow.yaml", "name: wf\nshortDescription: s\nagents:\n  a:\n    model: x\n")
	write(t, dir, "workflow.ts", "export default 1;\n")
	base := keyOf(t, dir)
	if keyOf(t, dir) != base {
		t.Fatal("key is not deterministic")
	}
	write(t, dir, "workflow.yaml", "# comment\nshortDescription: s\nname: wf\nagents:\n  a:\n    model: y\n")
	if keyOf(t, dir) != base {
		t.Fatal("agents, comments or key order changed the key")
	}
	write(t, dir, "workflow.yaml", "name: wf\nshortDescription: other\n")
	if keyOf(t, dir) == base {
		t.Fatal("a build-relevant manifest change kept the key")
	}
	write(t, dir, "workflow.yaml", "name: wf\nshortDescription: s\n")
	base = keyOf(t, dir)
	if err := os.Rename(filepath.Join(dir, "workflow.ts"), filepath.Join(dir, "main.ts")); err != nil {
		t.Fatal(err)
	}
	if keyOf(t, dir) == base {
		t.Fatal("a rename kept the key")
	}
}

func TestKeyCoversToolchainAndReferences(t *testing.T) {
	p := Parts{Toolchain: CurrentToolchain(), Files: []FileHash{{Path: "a.ts", SHA256: "00"}}}
	k := p.Key()
	q := p
	q.Toolchain.TypeScriptVersion = "0.0.0"
	if q.Key() == k {
		t.Fatal("TypeScript version not in the key")
	}
	q = p
	q.Toolchain.CompilerFlags = append([]string{}, p.Toolchain.CompilerFlags[1:]...)
	if q.Key() == k {
		t.Fatal("compiler flags not in the key")
	}
	q = p
	q.References = []Reference{{Name: "c", Key: "1"}}
	if q.Key() == k {
		t.Fatal("references not in the key")
	}
}

func TestCompare(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "wf")
	write(t, dir, "workflow.ts", "x")
	src, _ := ScanSources(dir)
	parts := Parts{Toolchain: CurrentToolchain(), Files: src.Files}
	key := parts.Key()
	if s, r := Compare(dir, parts, key); s != NotBuilt || r != ReasonNeverBuilt {
		t.Fatalf("no record: %s %s", s, r)
	}
	rec := &Record{FormatVersion: RecordFormat, Name: "wf", Key: key, Parts: parts, Entry: "dist/wf/workflow.js"}
	if err := WriteRecord(dir, rec); err != nil {
		t.Fatal(err)
	}
	// Build records are for everyone who reads the project, not private.
	if fi, err := os.Stat(filepath.Join(dir, RecordFile)); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("record mode: %v, %v; want 0644", fi, err)
	}
	if s, r := Compare(dir, parts, key); r != ReasonOutputMissing {
		t.Fatalf("no output: %s %s", s, r)
	}
	write(t, dir, "dist/wf/workflow.js", "")
	if s, _ := Compare(dir, parts, key); s != Built {
		t.Fatalf("built: %s", s)
	}
	other := parts
	other.Files = []FileHash{{Path: "workflow.ts", SHA256: "ff"}}
	if _, r := Compare(dir, other, other.Key()); r != ReasonSourcesChanged {
		t.Fatalf("sources: %s", r)
	}
	other = parts
	other.Imports = []FileHash{{Path: "lib/shared.ts", SHA256: "ee"}}
	if _, r := Compare(dir, other, other.Key()); r != ReasonSourcesChanged {
		t.Fatalf("imports: %s", r)
	}
	other = parts
	other.References = []Reference{{Name: "c", Key: "k"}}
	if _, r := Compare(dir, other, other.Key()); r != ReasonReferenceChanged {
		t.Fatalf("references: %s", r)
	}
	other = parts
	other.Toolchain.StratosVersion = "9.9.9"
	if _, r := Compare(dir, other, other.Key()); r != ReasonToolchainChanged {
		t.Fatalf("toolchain: %s", r)
	}
	write(t, dir, RecordFile, "{")
	if _, r := Compare(dir, parts, key); r != ReasonRecordUnreadable {
		t.Fatalf("unreadable: %s", r)
	}
	if err := RemoveRecord(dir); err != nil {
		t.Fatal(err)
	}
	if err := RemoveRecord(dir); err != nil {
		t.Fatal("removing a missing record must be harmless:", err)
	}
}

// A workflow directory that is a symbolic link (to a checkout elsewhere,
// say) is listed, built and run like any other, so its key must cover the
// files it leads to: before, its walk stopped at the link and an edit
// never made it stale.
func TestSymlinkedWorkflowDirectoryIsScannedWhereItLeads(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "src")
	write(t, src, "workflow.yaml", "name: wf\n")
	write(t, src, "workflow.ts", `import "./lib/helper.js";`)
	write(t, src, "lib/helper.ts", "export const a = 1;\n")
	root := filepath.Join(base, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "wf")
	if err := os.Symlink(src, link); err != nil {
		t.Fatal(err)
	}
	before, err := ScanSources(link)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range before.Files {
		paths = append(paths, f.Path)
	}
	if want := []string{"lib/helper.ts", "workflow.ts", "workflow.yaml"}; !slices.Equal(paths, want) {
		t.Fatalf("files of the linked workflow: %v, want %v", paths, want)
	}
	if len(before.Imports) != 0 || len(before.OutsideRoot) != 0 {
		t.Errorf("its own files count as imports or outside the root: %+v %+v", before.Imports, before.OutsideRoot)
	}
	write(t, src, "lib/helper.ts", "export const a = 2;\n")
	after, err := ScanSources(link)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(before.Files, after.Files) {
		t.Fatal("an edit of the linked workflow's file left its sources' hashes as they were")
	}
}

// The key's text is fixed: a key that changed for the same parts would
// make every built workflow stale. keyWithFmt is how it was first written.
func TestKeyTextIsUnchanged(t *testing.T) {
	keyWithFmt := func(p Parts) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%s\nstratos %s\ntypescript %s\ntypes-node %s\nflags %s\n", keyFormat,
			p.Toolchain.StratosVersion, p.Toolchain.TypeScriptVersion, p.Toolchain.TypesNodeVersion,
			strings.Join(p.Toolchain.CompilerFlags, " "))
		for _, f := range p.Files {
			fmt.Fprintf(&b, "file %q %s\n", f.Path, f.SHA256)
		}
		for _, f := range p.Imports {
			fmt.Fprintf(&b, "import %q %s\n", f.Path, f.SHA256)
		}
		for _, r := range p.References {
			fmt.Fprintf(&b, "ref %s %s\n", r.Name, r.Key)
		}
		h := sha256.Sum256([]byte(b.String()))
		return hex.EncodeToString(h[:])
	}
	for _, p := range []Parts{
		{Toolchain: CurrentToolchain()},
		{
			Toolchain:  CurrentToolchain(),
			Files:      []FileHash{{"workflow.ts", "aa"}, {"lib/ü \"quoted\"\t.ts", "bb"}},
			Imports:    []FileHash{{"lib/shared.ts", "cc"}},
			References: []Reference{{"child", "dd"}, {"ghost", ""}},
		},
	} {
		if got, want := p.Key(), keyWithFmt(p); got != want {
			t.Errorf("Key() = %s, want %s for %+v", got, want, p)
		}
	}
}
