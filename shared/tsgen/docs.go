package tsgen

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
)

// Source is a Go package whose doc comments a generated file carries.
type Source struct {
	Dir        string // the package's source directory
	ImportPath string
}

// Docs are the doc comments of Go types and their fields, trimmed.
type Docs struct {
	types  map[string]string // by type name
	fields map[string]string // by "Type.Field"
}

// Type returns the doc comment of the type called name.
func (d Docs) Type(name string) string { return d.types[name] }

// Field returns the doc comment of field of the type called typeName.
func (d Docs) Field(typeName, field string) string { return d.fields[typeName+"."+field] }

// ReadDocs reads the doc comments of the packages of sources (their
// _test.go files left out); where two declare a name, the earlier one's
// comment is kept.
func ReadDocs(sources ...Source) (Docs, error) {
	d := Docs{types: map[string]string{}, fields: map[string]string{}}
	for _, s := range sources {
		if err := d.read(s); err != nil {
			return Docs{}, err
		}
	}
	return d, nil
}

// read adds the doc comments of s's package, except for names already known.
func (d Docs) read(s Source) error {
	names, err := filepath.Glob(filepath.Join(s.Dir, "*.go"))
	if err != nil || len(names) == 0 {
		return fmt.Errorf("no Go sources of %s in %s (err %v)", s.ImportPath, s.Dir, err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return fmt.Errorf("read the sources of %s: %w", s.ImportPath, err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, s.ImportPath, doc.AllDecls)
	if err != nil {
		return fmt.Errorf("read the doc comments of %s: %w", s.ImportPath, err)
	}
	for _, t := range p.Types {
		addOnce(d.types, t.Name, t.Doc)
		st, ok := t.Decl.Specs[0].(*ast.TypeSpec).Type.(*ast.StructType)
		if !ok {
			continue
		}
		for _, f := range st.Fields.List {
			for _, n := range f.Names {
				addOnce(d.fields, t.Name+"."+n.Name, f.Doc.Text())
			}
		}
	}
	return nil
}

func addOnce(m map[string]string, key, text string) {
	if _, known := m[key]; !known {
		m[key] = strings.TrimSpace(text)
	}
}
