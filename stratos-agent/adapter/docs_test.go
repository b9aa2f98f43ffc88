package adapter

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestLayoutTableNamesEveryPackage keeps docs/adapters.md's layout table
// current: every package of the kit (adapter/...) and every adapter
// (adapters/...) has a row.
func TestLayoutTableNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "adapters.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := layoutPackages(string(doc))
	if !slices.Contains(documented, "adapter") {
		t.Fatalf("docs/adapters.md: no layout table with the adapter package (found %q)", documented)
	}
	for _, parent := range []string{"adapter", "adapters"} {
		for _, pkg := range goPackagesUnder(t, filepath.Join("..", parent)) {
			if name := parent + "/" + pkg; !slices.Contains(documented, name) {
				t.Errorf("docs/adapters.md: the layout table has no row for %s", name)
			}
		}
	}
}

// layoutPackages are the package names in the first column of the table
// under "| Package |", each cell naming one or more as `name`.
func layoutPackages(doc string) []string {
	_, table, ok := strings.Cut(doc, "| Package |")
	if !ok {
		return nil
	}
	table, _, _ = strings.Cut(table, "\n\n")
	var out []string
	quoted := regexp.MustCompile("`([^`]+)`")
	for _, row := range strings.Split(table, "\n") {
		cells := strings.Split(row, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range quoted.FindAllStringSubmatch(cells[1], -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// goPackagesUnder lists the directories right under dir that hold Go
// files.
func goPackagesUnder(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if files, _ := filepath.Glob(filepath.Join(dir, e.Name(), "*.go")); len(files) > 0 {
			out = append(out, e.Name())
		}
	}
	return out
}
