package wrappergen

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current generator")

// fixture is one file of testdata/schemas, written by generate.mjs from real
// zod schemas (the zod source is kept beside what it emitted).
type fixture struct {
	Zod    struct{ Input, Output string }
	Input  json.RawMessage
	Output json.RawMessage
}

// goldenCases maps each schema fixture to the workflow it stands for. The
// fixture's file name is the workflow name.
func goldenCases(t testing.TB) map[string]Wrapper {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "schemas", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schema fixtures in testdata/schemas (err %v)", err)
	}
	cases := map[string]Wrapper{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var fx fixture
		if err := json.Unmarshal(data, &fx); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		w := Wrapper{Name: name, Dir: name, Entrypoint: "workflow.ts", Input: fx.Input, Output: fx.Output}
		if name == "v2-deploy-3d" {
			// A nested entrypoint in a directory that differs from the name.
			w.Dir, w.Entrypoint = "deploy", "src/main.ts"
		}
		cases[name] = w
	}
	return cases
}

func TestGoldenWrappers(t *testing.T) {
	for name, w := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			got, err := Generate(w)
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGoldenWrappers -update to create it)", err)
			}
			if string(got) != string(want) {
				t.Errorf("generated wrapper differs from %s (rerun with -update if the change is intended):\n%s",
					golden, lineDiff(string(want), string(got)))
			}
		})
	}
}

// TestGoldenFilesHaveFixtures keeps testdata tidy: a golden file whose
// fixture was deleted would otherwise be compiled by the tsc test forever.
func TestGoldenFilesHaveFixtures(t *testing.T) {
	cases := goldenCases(t)
	goldens, _ := filepath.Glob(filepath.Join("testdata", "*.golden"))
	if len(goldens) != len(cases) {
		t.Errorf("%d golden files for %d fixtures", len(goldens), len(cases))
	}
	for _, g := range goldens {
		if _, ok := cases[strings.TrimSuffix(filepath.Base(g), ".golden")]; !ok {
			t.Errorf("%s has no fixture in testdata/schemas", g)
		}
	}
}

// lineDiff shows the first differing lines, enough to see what changed.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 10; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want: %s\n  got:  %s\n", i+1, wl, gl)
			shown++
		}
	}
	return b.String()
}
