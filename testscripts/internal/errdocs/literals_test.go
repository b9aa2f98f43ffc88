package errdocs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/testscripts/internal/clidocs"
)

// codeLiteral is an error code written as a string where an error is made
// or matched: codes come from the contract packages' constants instead.
var codeLiteral = regexp.MustCompile(`clierr\.(New|Usage)\("|\bCode:\s*"[a-z_]+"|\.Code\s*[!=]=\s*"[a-z_]+"`)

// Outside tests, no Go file makes or matches an error by a literal code, so
// every code a tool returns is a contract constant and in docs/errors.md.
func TestNoErrorCodeLiterals(t *testing.T) {
	root, err := clidocs.WorkingRepositoryRoot()
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		// fakemodel imitates the model providers' own error codes.
		if d.IsDir() && d.Name() == "fakemodel" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if codeLiteral.MatchString(line) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: an error code as a literal (use the contract's constant): %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
