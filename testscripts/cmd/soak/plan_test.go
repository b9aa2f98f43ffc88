package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The same seed and iteration give the same action, whatever ran before:
// a failure is replayed with --seed S --first I --kills 1.
func TestPlanIsReplayable(t *testing.T) {
	const window = 8 * time.Second
	for i := range 50 {
		a, b := planIteration(42, i, chaosKinds, window, 0.2), planIteration(42, i, chaosKinds, window, 0.2)
		if a != b {
			t.Fatalf("iteration %d: %+v then %+v", i, a, b)
		}
	}
	differ := 0
	for i := range 50 {
		if planIteration(42, i, chaosKinds, window, 0.2) != planIteration(43, i, chaosKinds, window, 0.2) {
			differ++
		}
	}
	if differ < 45 {
		t.Errorf("seeds 42 and 43 planned %d of 50 iterations alike", 50-differ)
	}
}

func TestPlanCoversTheKindsWithinTheWindow(t *testing.T) {
	const window = 8 * time.Second
	seen := map[Kind]int{}
	stale := 0
	for i := range 2000 {
		a := planIteration(7, i, chaosKinds, window, 0.2)
		seen[a.Kind]++
		if a.At < 0 || a.At > window {
			t.Fatalf("iteration %d strikes at %s, outside [0, %s]", i, a.At, window)
		}
		if building := a.Kind == KindBuild || a.Kind == KindCompiler; building {
			if !a.Stale || a.At > window/8 {
				t.Fatalf("iteration %d strikes the build (%s) at %s, stale %v: want a stale run and the first eighth", i, a.Kind, a.At, a.Stale)
			}
		} else if a.Stale {
			stale++
		}
	}
	for _, k := range chaosKinds {
		if seen[k] < 2000/len(chaosKinds)/2 {
			t.Errorf("kind %s drawn %d times in 2000", k, seen[k])
		}
	}
	if stale == 0 {
		t.Error("no iteration striking the run made its workflows stale")
	}
	if a := planIteration(7, 0, []Kind{KindMCP}, window, 0); a.Kind != KindMCP || a.Stale {
		t.Errorf("one kind, no staleness: %+v", a)
	}
}

func TestEveryKindHasAnExpectation(t *testing.T) {
	for _, k := range chaosKinds {
		if len(expected(k)) == 0 {
			t.Errorf("no expected status for %s", k)
		}
		for _, s := range expected(k) {
			if !finished(s) {
				t.Errorf("%s expects %q, not a final status", k, s)
			}
		}
	}
}

func TestStampMakesTheSourcesChange(t *testing.T) {
	root := t.TempDir()
	if err := writeWorkflows(root); err != nil {
		t.Fatal(err)
	}
	c := &chaosLoop{s: &stack{root: root}}
	for range 2 {
		if err := c.stamp(); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range []string{"chaos", "worker"} {
		b, err := os.ReadFile(filepath.Join(root, w, "workflow.ts"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "// Source stamp (the soak rewrites it to make the run build first): 2\n") {
			t.Errorf("%s after two stamps:\n%s", w, b)
		}
	}
}
