package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSourceClosureFollowsRelativeImportsOnly(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "wf/workflow.ts", `import { a } from "./a.js"; import type { T } from "../lib/t.js"; import * as z from "zod"; export default a;`)
	writeFile(t, root, "wf/a.ts", `export const a = 1;`)
	writeFile(t, root, "wf/unused.ts", `export const u = 1;`)
	writeFile(t, root, "lib/t.ts", `import "./d.js"; export interface T { x: number }`)
	writeFile(t, root, "lib/d.d.ts", `export declare const d: number;`)
	got, ok := sourceClosure(root, filepath.Join(root, "wf", "workflow.ts"))
	if !ok {
		t.Fatal("closure not shareable")
	}
	slices.Sort(got)
	want := []string{"lib/d.d.ts", "lib/t.ts", "wf/a.ts", "wf/workflow.ts"}
	if !slices.Equal(got, want) {
		t.Fatalf("closure = %q, want %q", got, want)
	}
}

func TestSourceClosureRefusesWhatLeaksIntoASharedProgram(t *testing.T) {
	for name, src := range map[string]string{
		"global":     `declare global { var x: number } export {};`,
		"augment":    `declare module "zod" { interface X {} } export {};`,
		"reference":  "/// <reference path=\"./x.d.ts\" />\nexport {};",
		"script":     `const x = 1;`,
		"unresolved": `import "./missing.js"; export {};`,
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, root, "wf/workflow.ts", `import "./helper.js"; export default 1;`)
			writeFile(t, root, "wf/helper.ts", src)
			if _, ok := sourceClosure(root, filepath.Join(root, "wf", "workflow.ts")); ok {
				t.Fatalf("a closure with a %s file was found shareable", name)
			}
		})
	}
}

func TestSourceClosureRefusesSymlinkedSources(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "wf/workflow.ts", `import "./link.js"; export default 1;`)
	writeFile(t, root, "real/x.ts", `export const x = 1;`)
	if err := os.Symlink(filepath.Join(root, "real", "x.ts"), filepath.Join(root, "wf", "link.ts")); err != nil {
		t.Fatal(err)
	}
	if _, ok := sourceClosure(root, filepath.Join(root, "wf", "workflow.ts")); ok {
		t.Fatal("a closure through a symlink was found shareable")
	}
}

func TestEmittedName(t *testing.T) {
	for src, want := range map[string]string{"a/b.ts": "a/b.js", "a/b.mts": "a/b.mjs", "a/b.cts": "a/b.cjs", "a/b.d.ts": "", "a/b.d.mts": ""} {
		got, ok := emittedName(src)
		if got != want || ok != (want != "") {
			t.Errorf("emittedName(%q) = %q, %v; want %q", src, got, ok, want)
		}
	}
}

func TestLoaderGroupsCoverEveryDefinitionOnce(t *testing.T) {
	cases := []struct {
		n, cores int
		want     [][2]int
	}{
		{1, 2, [][2]int{{0, 1}}},
		{7, 8, [][2]int{{0, 7}}},                   // few: one loader
		{20, 2, [][2]int{{0, 20}}},                 // a second start costs more than it saves
		{200, 1, [][2]int{{0, 200}}},               // one core: one loader
		{600, 4, [][2]int{{0, 300}, {300, 600}}},   // no group below minPerLoader
		{200, 2, [][2]int{{0, 200}}},               // a second start still costs more
		{1000, 2, [][2]int{{0, 500}, {500, 1000}}}, // many: one per core
	}
	for _, c := range cases {
		if got := loaderGroups(c.n, c.cores); !slices.Equal(got, c.want) {
			t.Errorf("loaderGroups(%d, %d) = %v, want %v", c.n, c.cores, got, c.want)
		}
	}
}
