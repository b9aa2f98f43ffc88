package contract

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
)

var codeName = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// Every code is lower_snake_case, described once per contract, and a code
// two contracts share comes with the same exit code in both.
func TestCodesAreWellFormedAndConsistent(t *testing.T) {
	exits := map[string]int{}
	for _, tool := range Tools() {
		seen := map[string]bool{}
		for _, c := range tool.Codes {
			if !codeName.MatchString(c.Name) {
				t.Errorf("%s: code %q is not lower_snake_case", tool.Package, c.Name)
			}
			if seen[c.Name] {
				t.Errorf("%s: %s is described twice", tool.Package, c.Name)
			}
			seen[c.Name] = true
			if c.Meaning == "" {
				t.Errorf("%s: %s has no meaning", tool.Package, c.Name)
			}
			if c.Exit != clierr.ExitFailed && c.Exit != clierr.ExitUsage && c.Exit != clierr.ExitInterrupted {
				t.Errorf("%s: %s has exit %d", tool.Package, c.Name, c.Exit)
			}
			if prev, ok := exits[c.Name]; ok && prev != c.Exit {
				t.Errorf("%s: %s exits %d here and %d in another contract", tool.Package, c.Name, c.Exit, prev)
			}
			exits[c.Name] = c.Exit
		}
	}
}

// Every Code… constant a contract's codes.go declares is described by
// that contract, so none is missing from docs/errors.md.
func TestEveryCodeConstantIsDescribed(t *testing.T) {
	for _, tool := range Tools() {
		described := map[string]bool{}
		for _, c := range tool.Codes {
			described[c.Name] = true
		}
		declared := codeConstants(t, filepath.Join(tool.Package, "codes.go"))
		if len(declared) == 0 {
			t.Fatalf("%s/codes.go declares no Code constant", tool.Package)
		}
		for name, value := range declared {
			if !described[value] {
				t.Errorf("%s.%s (%q) is not in the contract's Codes()", tool.Package, name, value)
			}
		}
	}
}

// codeConstants returns the string constants named Code… in file.
func codeConstants(t *testing.T, file string) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || len(name.Name) < 5 || name.Name[:4] != "Code" {
					continue
				}
				v, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out[name.Name] = v
			}
		}
	}
	return out
}
