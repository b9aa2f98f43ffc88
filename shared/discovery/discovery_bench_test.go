package discovery

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/roots"
)

// syntheticRoot writes n workflows shaped like scripts/bench-list's (five
// ~10 KB .ts files, workflow.yaml, package.json, a ~40 KB lock file).
func syntheticRoot(tb testing.TB, n int) string {
	tb.Helper()
	root := filepath.Join(tb.TempDir(), ".stratos", "workflows")
	ts := strings.Repeat("export const v = \"0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\";\n", 100)
	lock := strings.Repeat("    \"node_modules/pkg\": { \"version\": \"1.0.0\", \"integrity\": \"sha512-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP==\" },\n", 330)
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("wf-%04d", i))
		files := map[string]string{
			"workflow.yaml":     fmt.Sprintf("name: wf-%04d\nshortDescription: s\nlongDescription: l\n", i),
			"package.json":      `{"type":"module"}`,
			"package-lock.json": fmt.Sprintf("{\"n\":%d,\n%s}", i, lock),
			"workflow.ts":       fmt.Sprintf("// %d\nimport \"./lib/a.js\";\n%s", i, ts),
		}
		for _, f := range []string{"a", "b", "c", "d"} {
			files["lib/"+f+".ts"] = fmt.Sprintf("// %d %s\n%s", i, f, ts)
		}
		for rel, content := range files {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return root
}

// BenchmarkListRoot times what `stratos list` does for a 200-workflow root:
// read every manifest and hash every authored file. Compare it with
// BenchmarkSequentialSHA256Baseline, which only reads and hashes the same
// files one after the other (what coreutils sha256sum does):
//
//	go test -bench 'ListRoot|Baseline' ./discovery/
//
// BenchmarkListRootSharedLib adds a shared lib/ every workflow imports.
func BenchmarkListRoot(b *testing.B) {
	root := syntheticRoot(b, 200)
	b.ResetTimer()
	for b.Loop() {
		c, err := Load([]roots.Root{{Kind: roots.Project, Dir: root}})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.FreshenAll(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListRootSharedLib is BenchmarkListRoot with every workflow also
// importing a chain of five files in the root's shared lib/. One listing
// reads the lib once, not once per workflow, so it should cost about what
// BenchmarkListRoot costs.
func BenchmarkListRootSharedLib(b *testing.B) {
	root := syntheticRoot(b, 200)
	ts := strings.Repeat("export const v = \"0123456789abcdefghijklmnopqrstuvwxyz\";\n", 250)
	for i, f := range []string{"a", "b", "c", "d", "e"} {
		next := ""
		if i < 4 {
			next = fmt.Sprintf("import \"./%c.js\";\n", 'a'+i+1)
		}
		writeBenchFile(b, filepath.Join(root, "lib", f+".ts"), next+ts)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "wf-") {
			p := filepath.Join(root, e.Name(), "workflow.ts")
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			writeBenchFile(b, p, "import \"../lib/a.js\";\n"+string(data))
		}
	}
	b.ResetTimer()
	for b.Loop() {
		c, err := Load([]roots.Root{{Kind: roots.Project, Dir: root}})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.FreshenAll(); err != nil {
			b.Fatal(err)
		}
	}
}

func writeBenchFile(tb testing.TB, p, content string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

func BenchmarkSequentialSHA256Baseline(b *testing.B) {
	root := syntheticRoot(b, 200)
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	b.ResetTimer()
	for b.Loop() {
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			sha256.Sum256(data)
		}
	}
}

// BenchmarkIndexAfterBuild times what the end of a build costs for the
// list index of a root of 20 or 200 workflows, every one of them entered:
// WriteIndex (every entry's stat data checked) against RefreshIndex (only
// the workflows the build touched scanned), after a build that changed
// nothing and after one that rebuilt a workflow whose file was edited:
//
//	go test -run XXX -bench IndexAfterBuild -count 5 ./discovery/
func BenchmarkIndexAfterBuild(b *testing.B) {
	for _, n := range []int{20, 200} {
		root := syntheticRoot(b, n)
		settleIndex(b, root, n)
		leaf := filepath.Join(root, "wf-0000")
		edit := func() { writeBenchFile(b, filepath.Join(leaf, "lib", "d.ts"), fmt.Sprintf("// %d\n", b.N)) }
		cases := []struct {
			name string
			run  func() error
		}{
			{"write/no-op", func() error { return WriteIndex(root) }},
			{"refresh/no-op", func() error { return RefreshIndex(root, []string{}) }},
			{"write/leaf-edit", func() error { edit(); return WriteIndex(root) }},
			{"refresh/leaf-edit", func() error { edit(); return RefreshIndex(root, []string{leaf}) }},
		}
		for _, c := range cases {
			b.Run(fmt.Sprintf("%d/%s", n, c.name), func(b *testing.B) {
				settleIndex(b, root, n)
				for b.Loop() {
					if err := c.run(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// settleIndex writes the root's index until its n workflows are entered.
func settleIndex(tb testing.TB, root string, n int) {
	tb.Helper()
	for range 300 {
		if err := WriteIndex(root); err != nil {
			tb.Fatal(err)
		}
		if idx := readIndex(root); idx != nil && len(idx.lines) == n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	tb.Fatal("the index never held every workflow")
}
