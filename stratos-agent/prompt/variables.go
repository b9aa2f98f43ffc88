package prompt

import (
	"slices"
	"strconv"
	"strings"

	"github.com/aymerick/raymond/ast"
)

// use is one place where a template reads a variable from the root context.
type use struct {
	parts []string // path from the root, e.g. ["user", "name"]
	line  int
	// whole: the full path must resolve (the value is printed or iterated);
	// otherwise only the top-level variable must be supplied.
	whole bool
}

// conditionHelpers only test their argument: a missing value is a legitimate
// "false", and inside their guarded branch the tested path may be printed.
var conditionHelpers = map[string]bool{"if": true, "unless": true}

// walker finds the variable uses of a template by walking raymond's AST.
// depth counts the context changes (each, with, sections) around a node:
// paths inside them are relative to an item and cannot be checked
// statically, except through @root or enough ../ to climb back.
type walker struct {
	uses []use
	// keyParam is the line of the first each with a second block
	// parameter (as |item key|), which Stratos's each cannot set (0: none).
	keyParam int
}

func (w *walker) program(p *ast.Program, depth int, guards [][]string) {
	if p == nil {
		return
	}
	for _, n := range p.Body {
		switch n := n.(type) {
		case *ast.MustacheStatement:
			w.expression(n.Expression, depth, guards, true)
		case *ast.BlockStatement:
			w.block(n, depth, guards)
		case *ast.PartialStatement:
			for _, param := range n.Params {
				w.value(param, depth, guards)
			}
			w.hash(n.Hash, depth, guards)
		}
	}
}

func (w *walker) block(b *ast.BlockStatement, depth int, guards [][]string) {
	expr := b.Expression
	name := expr.HelperName()
	if conditionHelpers[name] && len(expr.Params) == 1 {
		cond := w.rootPath(expr.Params[0], depth)
		programGuards, inverseGuards := guards, guards
		if cond != nil {
			if name == "if" {
				programGuards = append(slices.Clip(guards), cond)
			} else {
				inverseGuards = append(slices.Clip(guards), cond)
			}
		}
		w.program(b.Program, depth, programGuards)
		w.program(b.Inverse, depth, inverseGuards)
		return
	}
	if len(expr.Params) == 0 && expr.Hash == nil {
		// A section ({{#name}}…{{/name}}): name is a variable and the
		// block's context becomes its value.
		w.expression(expr, depth, guards, false)
	} else {
		for _, p := range expr.Params {
			w.value(p, depth, guards)
		}
		w.hash(expr.Hash, depth, guards)
	}
	if name == "each" && b.Program != nil && len(b.Program.BlockParams) > 1 && w.keyParam == 0 {
		w.keyParam = b.Loc.Line
	}
	w.program(b.Program, depth+1, guards)
	w.program(b.Inverse, depth, guards)
}

// expression records a mustache or section expression: with parameters it
// is a helper call whose arguments are values; without, a variable.
func (w *walker) expression(e *ast.Expression, depth int, guards [][]string, printed bool) {
	if len(e.Params) > 0 || e.Hash != nil {
		for _, p := range e.Params {
			w.value(p, depth, guards)
		}
		w.hash(e.Hash, depth, guards)
		return
	}
	if path, ok := e.Path.(*ast.PathExpression); ok {
		w.path(path, depth, guards, printed)
	}
}

// value records a helper argument.
func (w *walker) value(n ast.Node, depth int, guards [][]string) {
	switch n := n.(type) {
	case *ast.Expression:
		w.expression(n, depth, guards, true)
	case *ast.SubExpression:
		w.expression(n.Expression, depth, guards, true)
	case *ast.PathExpression:
		w.path(n, depth, guards, true)
	}
}

func (w *walker) hash(h *ast.Hash, depth int, guards [][]string) {
	if h == nil {
		return
	}
	for _, pair := range h.Pairs {
		w.value(pair.Val, depth, guards)
	}
}

func (w *walker) path(p *ast.PathExpression, depth int, guards [][]string, whole bool) {
	parts := w.rootPath(p, depth)
	if parts == nil {
		return
	}
	for _, g := range guards {
		if hasPrefix(parts, g) {
			return
		}
	}
	w.uses = append(w.uses, use{parts: parts, line: p.Loc.Line, whole: whole})
}

// rootPath returns the path of n from the root context, or nil when n is not
// a path or is relative to an inner context.
func (w *walker) rootPath(n ast.Node, depth int) []string {
	switch e := n.(type) {
	case *ast.Expression:
		if len(e.Params) > 0 || e.Hash != nil {
			return nil
		}
		n = e.Path
	case *ast.SubExpression:
		return nil
	}
	p, ok := n.(*ast.PathExpression)
	if !ok {
		return nil
	}
	if p.Data {
		if len(p.Parts) > 1 && p.Parts[0] == "root" {
			return p.Parts[1:]
		}
		return nil
	}
	if depth-p.Depth != 0 || len(p.Parts) == 0 {
		return nil
	}
	return p.Parts
}

func hasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// missing returns the first use whose variable (or, for printed values,
// whole path) is absent from vars, as a dotted path.
func missing(uses []use, vars map[string]any) (string, int, bool) {
	for _, u := range uses {
		v, ok := vars[u.parts[0]]
		if !ok {
			return u.parts[0], u.line, true
		}
		if !u.whole {
			continue
		}
		for i, part := range u.parts[1:] {
			v, ok = child(v, part)
			if !ok {
				return strings.Join(u.parts[:i+2], "."), u.line, true
			}
		}
	}
	return "", 0, false
}

func child(v any, key string) (any, bool) {
	// Segment literals ([1], [my key]) name the key inside the brackets.
	if len(key) >= 2 && key[0] == '[' && key[len(key)-1] == ']' {
		key = key[1 : len(key)-1]
	}
	switch x := v.(type) {
	case map[string]any:
		c, ok := x[key]
		return c, ok
	case []any:
		i, err := strconv.Atoi(key)
		if err != nil || i < 0 || i >= len(x) {
			return nil, key == "length"
		}
		return x[i], true
	}
	return nil, false
}
