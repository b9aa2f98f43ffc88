package freshness

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// sharedLibRoot writes a root whose workflow wf imports a shared lib/ that
// imports further files by every form the compiler follows.
func sharedLibRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "workflows")
	write(t, root, "wf/workflow.yaml", "name: wf\n")
	write(t, root, "wf/workflow.ts", `import { settle } from "../lib/fanout.js"; import "./local.js"; export default settle;`)
	write(t, root, "wf/local.ts", "export const local = 1;\n")
	write(t, root, "lib/fanout.ts", "import type { T } from \"./types.js\";\nimport { u } from './util.js';\nexport const settle = async () => (await import(\"./late.js\")).late;\n")
	write(t, root, "lib/types.ts", "export type T = number;\n")
	write(t, root, "lib/util.ts", `export { c } from "../.generated/child.js"; export const u = 1;`)
	write(t, root, "lib/late.ts", "export const late = 1;\n")
	write(t, root, "lib/unused.ts", "export const unused = 1;\n")
	return root
}

func importPaths(src Sources) []string {
	var out []string
	for _, f := range src.Imports {
		out = append(out, f.Path)
	}
	return out
}

func TestScannerFollowsImportsAcrossTheRoot(t *testing.T) {
	root := sharedLibRoot(t)
	src, err := NewScanner(root).Sources(filepath.Join(root, "wf"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"lib/fanout.ts", "lib/late.ts", "lib/types.ts", "lib/util.ts"}
	if got := importPaths(src); !reflect.DeepEqual(got, want) {
		t.Fatalf("imports = %q, want %q", got, want)
	}
	if !reflect.DeepEqual(src.References, []string{"child"}) {
		t.Fatalf("references through the lib = %q", src.References)
	}
	if src.ImportedBy["child"] != filepath.Join(root, "lib", "util.ts") {
		t.Fatalf("child imported by %q", src.ImportedBy["child"])
	}
	before := src.Parts().Key()
	write(t, root, "lib/late.ts", "export const late = 2;\n")
	after, err := NewScanner(root).Sources(filepath.Join(root, "wf"))
	if err != nil {
		t.Fatal(err)
	}
	if after.Parts().Key() == before {
		t.Fatal("editing a transitively imported shared file kept the key")
	}
}

func TestScannerHashesSymlinkTargetsUnderTheirPath(t *testing.T) {
	root := sharedLibRoot(t)
	wf := filepath.Join(root, "wf")
	if err := os.Symlink("../lib", filepath.Join(wf, "shared")); err != nil {
		t.Fatal(err)
	}
	write(t, root, "wf/workflow.ts", `import { settle } from "./shared/fanout.js"; export default settle;`)
	src, err := NewScanner(root).Sources(wf)
	if err != nil {
		t.Fatal(err)
	}
	// Like tsc, the files keep the paths the workflow reaches them by, and
	// their own imports are resolved from there.
	want := []string{"wf/shared/fanout.ts", "wf/shared/late.ts", "wf/shared/types.ts", "wf/shared/util.ts"}
	if got := importPaths(src); !reflect.DeepEqual(got, want) {
		t.Fatalf("imports = %q, want %q", got, want)
	}
	data, err := os.ReadFile(filepath.Join(root, "lib", "fanout.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if got := src.Imports[0].SHA256; got != sum(data) {
		t.Fatalf("symlinked file hashed as %s, want its target's content hash %s", got, sum(data))
	}
}

func TestScannerReportsImportsOutsideTheRoot(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, root, outside string)
	}{
		{"relative path", func(t *testing.T, root, outside string) {
			write(t, root, "wf/workflow.ts", `import { x } from "../../outside/x.js";`)
		}},
		{"symlink", func(t *testing.T, root, outside string) {
			if err := os.Symlink(outside, filepath.Join(root, "lib")); err != nil {
				t.Fatal(err)
			}
			write(t, root, "wf/workflow.ts", `import { x } from "../lib/x.js";`)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "workflows")
			outside := filepath.Join(base, "outside")
			write(t, root, "wf/workflow.yaml", "name: wf\n")
			write(t, outside, "x.ts", "export const x = 1;\n")
			c.setup(t, root, outside)
			src, err := NewScanner(root).Sources(filepath.Join(root, "wf"))
			if err != nil {
				t.Fatal(err)
			}
			if len(src.OutsideRoot) != 1 {
				t.Fatalf("outside-root imports = %+v, want one", src.OutsideRoot)
			}
			got := src.OutsideRoot[0]
			want := OutsideImport{File: filepath.Join(root, "wf", "workflow.ts"), Specifier: got.Specifier, Resolved: filepath.Join(outside, "x.ts")}
			if got != want || got.Specifier == "" {
				t.Fatalf("outside-root import = %+v, want %+v", got, want)
			}
			if len(src.Imports) != 0 {
				t.Fatalf("a file outside the root was hashed as an import: %q", importPaths(src))
			}
		})
	}
}

func TestScannerReadsASharedFileOncePerInvocation(t *testing.T) {
	root := sharedLibRoot(t)
	write(t, root, "other/workflow.yaml", "name: other\n")
	write(t, root, "other/workflow.ts", `import { settle } from "../lib/fanout.js"; export default settle;`)
	s := NewScanner(root)
	first, err := s.Sources(filepath.Join(root, "wf"))
	if err != nil {
		t.Fatal(err)
	}
	// Changed after the first workflow's scan: the same Scanner still
	// answers from what it read, so every workflow of one listing is
	// judged against one content of the lib.
	write(t, root, "lib/fanout.ts", "export const settle = 2;\n")
	second, err := s.Sources(filepath.Join(root, "other"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first.Imports, second.Imports) {
		t.Fatalf("a shared file was read again: %v vs %v", first.Imports, second.Imports)
	}
	fresh, err := NewScanner(root).Sources(filepath.Join(root, "other"))
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(fresh.Imports, second.Imports) {
		t.Fatal("a new Scanner did not see the edit")
	}
}

func TestScannerEndsSymlinkLoops(t *testing.T) {
	root := filepath.Join(t.TempDir(), "workflows")
	write(t, root, "wf/workflow.ts", `import "../lib/a.js";`)
	write(t, root, "lib/a.ts", `import "./self/a.js";`)
	if err := os.Symlink(".", filepath.Join(root, "lib", "self")); err != nil {
		t.Fatal(err)
	}
	src, err := NewScanner(root).Sources(filepath.Join(root, "wf"))
	if err != nil {
		t.Fatal(err)
	}
	if got := importPaths(src); !reflect.DeepEqual(got, []string{"lib/a.ts"}) {
		t.Fatalf("imports = %q, want the one file once", got)
	}
}
