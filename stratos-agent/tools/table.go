package tools

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Tool is one selectable name and what it means in each harness that has it.
type Tool struct {
	// Name is what authors write in allowedTools / disallowedTools
	// (case-sensitive).
	Name string
	// In holds the harnesses that provide the tool. A tool is canonical
	// when two or more harnesses provide it.
	In map[Harness]Mapping
}

// Canonical reports whether two or more harnesses provide t.
func (t Tool) Canonical() bool { return len(t.In) >= 2 }

// Table is the built-in tools of a set of harnesses: every selectable name
// with its meaning in each harness, sorted by name. It is immutable once
// made.
type Table struct {
	decls map[Harness]Declaration
	tools []Tool
}

// NewTable assembles the declarations of several harnesses. A harness
// declared twice, a name declared twice by one harness, a name without a
// native counterpart or a pair naming a tool the harness does not remove
// is an error: the declarations are code, so the error is a bug to fix.
func NewTable(decls ...Declaration) (*Table, error) {
	t := &Table{decls: make(map[Harness]Declaration, len(decls))}
	byName := map[string]map[Harness]Mapping{}
	for _, d := range decls {
		if d.Harness == "" {
			return nil, fmt.Errorf("tool declaration without a harness name")
		}
		if _, dup := t.decls[d.Harness]; dup {
			return nil, fmt.Errorf("harness %s declares its tools twice", d.Harness)
		}
		t.decls[d.Harness] = d
		for _, tl := range d.Tools {
			if len(tl.Native) == 0 {
				return nil, fmt.Errorf("harness %s: tool %q has no native name", d.Harness, tl.Name)
			}
			if byName[tl.Name] == nil {
				byName[tl.Name] = map[Harness]Mapping{}
			}
			if _, dup := byName[tl.Name][d.Harness]; dup {
				return nil, fmt.Errorf("harness %s declares tool %q twice", d.Harness, tl.Name)
			}
			byName[tl.Name][d.Harness] = tl.Mapping
		}
		for _, p := range d.Together {
			for _, n := range []string{p.A, p.B} {
				if m, ok := byName[n][d.Harness]; !ok || m.AlwaysOn {
					return nil, fmt.Errorf("harness %s: pair %s/%s names %q, which it does not remove", d.Harness, p.A, p.B, n)
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		t.tools = append(t.tools, Tool{Name: name, In: byName[name]})
	}
	return t, nil
}

// Tools returns every selectable name, sorted; a copy no caller can use to
// change what another one sees.
func (t *Table) Tools() []Tool {
	out := make([]Tool, len(t.tools))
	for i, tl := range t.tools {
		out[i] = Tool{Name: tl.Name, In: make(map[Harness]Mapping, len(tl.In))}
		for h, m := range tl.In {
			out[i].In[h] = Mapping{Native: slices.Clone(m.Native), AlwaysOn: m.AlwaysOn}
		}
	}
	return out
}

// Harnesses returns the harnesses with declared tools, sorted by name.
func (t *Table) Harnesses() []Harness {
	return slices.Sorted(maps.Keys(t.decls))
}

// Harness returns the declaration of the harness called name, or an error
// listing the known ones.
func (t *Table) Harness(name string) (Declaration, error) {
	if d, ok := t.decls[Harness(name)]; ok {
		return d, nil
	}
	known := make([]string, 0, len(t.decls))
	for _, h := range t.Harnesses() {
		known = append(known, string(h))
	}
	return Declaration{}, fmt.Errorf("unknown harness %q (known: %s)", name, strings.Join(known, ", "))
}
