package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

func TestSchedulingFlagsSingleThreadSmallPrograms(t *testing.T) {
	tc := &toolchain.Toolchain{TypeRoots: "/types"}
	for _, n := range []int{1, 3, maxSingleThreaded} {
		if args := CompilerArgs(tc, "/root", "/out", make([]string, n)); !slices.Contains(args, "--singleThreaded") {
			t.Errorf("%d entrypoints compile on several threads: %q", n, args)
		}
	}
	if args := CompilerArgs(tc, "/root", "/out", make([]string, maxSingleThreaded+1)); slices.Contains(args, "--singleThreaded") {
		t.Errorf("%d entrypoints compile on one thread: %q", maxSingleThreaded+1, args)
	}
}

// TestSingleThreadedCompilesTheSame is why the scheduling flags are not
// part of the freshness key: tsc on one thread writes the same files, byte
// for byte, and reports the same diagnostics, in the same order, as on
// several, for a program that compiles and for one with type errors in
// several files.
func TestSingleThreadedCompilesTheSame(t *testing.T) {
	tc := toolchaintest.Ensure(t)
	for name, broken := range map[string]bool{"clean": false, "type errors": true} {
		t.Run(name, func(t *testing.T) {
			root := schedulingRoot(t, broken)
			entries, _ := filepath.Glob(filepath.Join(root, "*", "workflow.ts"))
			one := compileWith(t, tc, root, entries, true)
			several := compileWith(t, tc, root, entries, false)
			if one.exit != several.exit || one.output != several.output {
				t.Fatalf("tsc reports differently on one thread (exit %d):\n%s\nthan on several (exit %d):\n%s",
					one.exit, one.output, several.exit, several.output)
			}
			if !slices.EqualFunc(parseTscOutput(one.output), parseTscOutput(several.output), func(a, b Diagnostic) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
				t.Fatal("the diagnostics differ")
			}
			if broken != (one.exit != 0) || broken != (len(parseTscOutput(one.output)) >= 3) {
				t.Fatalf("broken program: %v, exit %d, output:\n%s", broken, one.exit, one.output)
			}
			if !broken && len(one.files) < 12 {
				t.Fatalf("tsc wrote %d files, want the 12 of the program", len(one.files))
			}
			if !mapsEqual(one.files, several.files) {
				t.Fatalf("tsc wrote other files on one thread (%d) than on several (%d)", len(one.files), len(several.files))
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

// compileWith compiles entries of root as a batch does, on one thread or
// on tsc's default several, and returns what tsc reported and wrote.
func compileWith(t *testing.T, tc *toolchain.Toolchain, root string, entries []string, single bool) compiled {
	t.Helper()
	out := t.TempDir()
	args := CompilerArgs(tc, root, out, entries)
	if !single {
		args = slices.DeleteFunc(args, func(a string) bool { return a == "--singleThreaded" })
	}
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

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
