package childcheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/testscripts/internal/clidocs"
)

// allowed are the functions that start a child without procgroup, and why
// the child cannot outlive its parent there or must.
var allowed = map[string]string{
	// The desktop's opener hands the URL to the user's browser, which is
	// the user's and must outlive the command.
	"stratos-run/command/serve.go openBrowser":     "the user's browser",
	"stratos-agent/command/mcpauth.go openBrowser": "the user's browser",
	// The validator exits at the end of its stdin, which the parent's
	// death closes; it is started on a run's hot path, where procgroup's
	// thread per child would cost (docs/performance.md).
	"shared/jsonvalidate/remote/remote.go Start": "exits with its stdin",
}

// Every child a tool starts is started through procgroup: a call of Run,
// Start, Output or CombinedOutput on an exec.Cmd outside procgroup (and
// outside the functions allowed above) fails here, naming the place.
func TestEveryChildStartsThroughProcgroup(t *testing.T) {
	root, err := clidocs.WorkingRepositoryRoot()
	if err != nil {
		t.Fatal(err)
	}
	found, err := directStarts(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s starts a child with exec.Cmd.%s: start it with shared/procgroup (Run, Output, Start) so that it dies with its parent", f.place, f.method)
	}
}

// The check itself finds a chained call, a variable's and a field's, in a
// function literal too, and passes a child given to procgroup.
func TestDirectStartsFindsEachForm(t *testing.T) {
	root := t.TempDir()
	src := `package x

import (
	"os/exec"

	"github.com/stratoscli/stratos/shared/procgroup"
)

type holder struct{ cmd *exec.Cmd }

func chained() { _ = exec.Command("git").Run() }

func variable() { c := exec.Command("git"); _, _ = c.CombinedOutput() }

func field() { h := &holder{cmd: exec.Command("git")}; _ = h.cmd.Start() }

func literal() { go func() { cmd := exec.Command("git"); _, _ = cmd.Output() }() }

func good() { cmd := exec.Command("git"); _ = procgroup.Run(cmd, procgroup.Options{}) }
`
	if err := os.MkdirAll(filepath.Join(root, "m"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "m", "x.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	found, err := directStarts(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range found {
		got = append(got, f.place+" "+f.method)
	}
	want := []string{"m/x.go:11 chained Run", "m/x.go:13 variable CombinedOutput", "m/x.go:15 field Start", "m/x.go:17 literal Output"}
	if !slices.Equal(got, want) {
		t.Errorf("directStarts found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

type start struct{ place, method string }

// skipped are the directories whose children are not a tool's: the test
// suite and its fixtures, and procgroup, which is the one place that
// starts children itself.
func skipped(rel string) bool {
	return rel == "testscripts" || rel == "shared/procgroup" || filepath.Base(rel) == "testdata" || strings.HasPrefix(filepath.Base(rel), ".")
}

// directStarts lists the calls under root that start an exec.Cmd made in
// the same function without procgroup.
func directStarts(root string) ([]start, error) {
	var found []start
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (skipped(rel) || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if _, ok := allowed[rel+" "+fn.Name.Name]; ok {
				continue
			}
			for _, c := range startsIn(fn.Body) {
				found = append(found, start{place: rel + ":" + strconv.Itoa(fset.Position(c.Pos()).Line) + " " + fn.Name.Name, method: c.Fun.(*ast.SelectorExpr).Sel.Name})
			}
		}
		return nil
	})
	return found, err
}

// startsIn lists the calls in body of Run, Start, Output or
// CombinedOutput on a command made in body by exec.Command or
// exec.CommandContext: called on the making call itself, or on the
// variable or field it was assigned to.
func startsIn(body *ast.BlockStmt) []*ast.CallExpr {
	cmds := map[string]bool{} // variables, and fields as ".name"
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, rhs := range n.Rhs {
				if i < len(n.Lhs) && makesCmd(rhs) {
					cmds[exprText(n.Lhs[i])] = true
				}
			}
		case *ast.KeyValueExpr:
			if k, ok := n.Key.(*ast.Ident); ok && makesCmd(n.Value) {
				cmds["."+k.Name] = true
			}
		}
		return true
	})
	var out []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !slices.Contains([]string{"Run", "Start", "Output", "CombinedOutput"}, sel.Sel.Name) {
			return true
		}
		x := exprText(sel.X)
		if makesCmd(sel.X) || cmds[x] || (strings.Contains(x, ".") && cmds[x[strings.LastIndex(x, "."):]]) {
			out = append(out, call)
		}
		return true
	})
	return out
}

// makesCmd reports whether e is a call of exec.Command or exec.CommandContext.
func makesCmd(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "exec" && (sel.Sel.Name == "Command" || sel.Sel.Name == "CommandContext")
}

// exprText is an identifier or a selector chain as written (a.b.c), or "".
func exprText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		if x := exprText(e.X); x != "" {
			return x + "." + e.Sel.Name
		}
	}
	return ""
}
