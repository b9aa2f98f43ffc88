package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

func TestSchedulingFlagsOneCheckerForSmallPrograms(t *testing.T) {
	tc := &toolchain.Toolchain{TypeRoots: "/types"}
	oneChecker := func(args []string) bool {
		i := slices.Index(args, "--checkers")
		return i >= 0 && i+1 < len(args) && args[i+1] == "1"
	}
	for _, n := range []int{1, 3, maxOneChecker} {
		if args := CompilerArgs(tc, "/root", "/out", make([]string, n)); !oneChecker(args) {
			t.Errorf("%d entrypoints are checked on several threads: %q", n, args)
		}
	}
	if args := CompilerArgs(tc, "/root", "/out", make([]string, maxOneChecker+1)); slices.Contains(args, "--checkers") {
		t.Errorf("%d entrypoints are not checked with tsc's default: %q", maxOneChecker+1, args)
	}
}

// TestSchedulingCompilesTheSame is why the scheduling flags are not part
// of the freshness key: tsc with one checker, and fully single-threaded,
// writes the same files, byte for byte, and reports the same diagnostics,
// in the same order, as with its default threads, for a program that
// compiles and for one with type errors in several files.
func TestSchedulingCompilesTheSame(t *testing.T) {
	tc := toolchaintest.Ensure(t)
	for name, broken := range map[string]bool{"clean": false, "type errors": true} {
		t.Run(name, func(t *testing.T) {
			root := schedulingRoot(t, broken)
			entries, _ := filepath.Glob(filepath.Join(root, "*", "workflow.ts"))
			several := compileWith(t, tc, root, entries)
			if broken != (several.exit != 0) || broken != (len(parseTscOutput(several.output)) >= 3) {
				t.Fatalf("broken program: %v, exit %d, output:\n%s", broken, several.exit, several.output)
			}
			if !broken && len(several.files) < 12 {
				t.Fatalf("tsc wrote %d files, want the 12 of the program", len(several.files))
			}
			for _, flags := range [][]string{{"--checkers", "1"}, {"--singleThreaded"}} {
				got := compileWith(t, tc, root, entries, flags...)
				if got.exit != several.exit || got.output != several.output {
					t.Fatalf("tsc %s reports differently (exit %d):\n%s\nthan by default (exit %d):\n%s",
						flags, got.exit, got.output, several.exit, several.output)
				}
				if !slices.EqualFunc(parseTscOutput(got.output), parseTscOutput(several.output), func(a, b Diagnostic) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
					t.Fatalf("tsc %s: the diagnostics differ", flags)
				}
				if !maps.Equal(got.files, several.files) {
					t.Fatalf("tsc %s wrote other files (%d) than by default (%d)", flags, len(got.files), len(several.files))
				}
			}
		})
	}
}

// schedulingRoot lays out six workflows that share a library and use
// node's types; with broken, three of them hold type errors.
func schedulingRoot(t *testing.T, broken bool) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, root, "package.json", `{"type":"module","private":true}`+"\n")
	writeFile(t, root, "lib/shared.ts", "export interface Shape { name: string; sides: number }\nexport const square: Shape = { name: \"square\", sides: 4 };\n")
	for i := range 6 {
		body := fmt.Sprintf("import * as path from \"node:path\";\nimport { square, type Shape } from \"../lib/shared.js\";\nimport { helper } from \"./helper.js\";\n"+
			"export const shape: Shape = { ...square, name: path.basename(\"/w%d\") };\nexport default helper(shape.sides * %d);\n", i, i)
		if broken && i%2 == 1 {
			body += fmt.Sprintf("export const wrong: number = \"w%d\";\n", i)
		}
		writeFile(t, root, fmt.Sprintf("w%d/workflow.ts", i), body)
		writeFile(t, root, fmt.Sprintf("w%d/helper.ts", i), "export function helper(n: number): string {\n  return `n=${n}`;\n}\n")
	}
	return root
}

type compiled struct {
	exit   int
	output string
	files  map[string]string
}

// compileWith compiles entries of root as a batch does, but with tsc's
// default scheduling plus schedFlags, and returns what tsc reported and
// wrote.
func compileWith(t *testing.T, tc *toolchain.Toolchain, root string, entries []string, schedFlags ...string) compiled {
	t.Helper()
	out := t.TempDir()
	args := append(outputArgs(tc, root, out), schedFlags...)
	args = append(args, entries...)
	cmd := exec.CommandContext(context.Background(), tc.Tsc, args...)
	cmd.Dir = root
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	c := compiled{files: map[string]string{}}
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("run %s: %v", tc.Tsc, err)
		}
		c.exit = exit.ExitCode()
	}
	c.output = buf.String()
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(out, p)
		c.files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
