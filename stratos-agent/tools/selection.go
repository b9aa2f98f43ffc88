package tools

import (
	"slices"
)

// Selection is an agent's resolved built-in tool selection.
//
// A nil AllowedTools means the field was omitted (keep the harness's default
// tools); a non-nil empty slice removes every removable tool. This is how
// encoding/json decodes an absent field and `[]`, so a decoded configuration
// can be passed as it is.
type Selection struct {
	AllowedTools    []string
	DisallowedTools []string
}

// Validate checks every name in both lists against the whole table: a name
// no harness has is an *UnknownToolError. Names of another harness are valid
// here; each harness ignores what it does not have.
func (t *Table) Validate(sel Selection) error {
	known := make(map[string]bool, len(t.tools))
	for _, tl := range t.tools {
		known[tl.Name] = true
	}
	for _, list := range []struct {
		field string
		names []string
	}{{"allowedTools", sel.AllowedTools}, {"disallowedTools", sel.DisallowedTools}} {
		for _, n := range list.names {
			if !known[n] {
				return &UnknownToolError{Field: list.field, Name: n, Suggestion: t.suggest(n)}
			}
		}
	}
	return nil
}

// Removed validates sel against the whole table and returns the names of
// the tools harness h must remove, sorted (see Declaration.Removed).
func (t *Table) Removed(h Harness, sel Selection) ([]string, error) {
	if err := t.Validate(sel); err != nil {
		return nil, err
	}
	d, err := t.Harness(string(h))
	if err != nil {
		return nil, err
	}
	return d.Removed(sel)
}

// Natives validates sel against the whole table and returns the native
// names that remove what sel removes in harness h (see
// Declaration.Natives).
func (t *Table) Natives(h Harness, sel Selection) ([]string, error) {
	if err := t.Validate(sel); err != nil {
		return nil, err
	}
	d, err := t.Harness(string(h))
	if err != nil {
		return nil, err
	}
	return d.Natives(sel)
}

// Removed returns the names of the tools the harness must remove under
// sel, sorted. Always-on tools and names the harness does not have are
// never returned: the names of other harnesses are valid selections that
// this harness ignores, and the agent host has checked every name against
// the whole table (Table.Validate) before an adapter sees it. A pair the
// harness can only remove together, split by sel, is a *PairedToolsError.
func (d Declaration) Removed(sel Selection) ([]string, error) {
	allowed := setOf(sel.AllowedTools)
	disallowed := setOf(sel.DisallowedTools)
	var out []string
	for _, tl := range d.Tools {
		if tl.AlwaysOn {
			continue
		}
		if disallowed[tl.Name] || (sel.AllowedTools != nil && !allowed[tl.Name]) {
			out = append(out, tl.Name)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	removed := setOf(out)
	for _, p := range d.Together {
		if removed[p.A] != removed[p.B] {
			pe := &PairedToolsError{Harness: d.Harness, Removed: p.A, Kept: p.B, Why: p.Why}
			if removed[p.B] {
				pe.Removed, pe.Kept = p.B, p.A
			}
			return nil, pe
		}
	}
	return out, nil
}

// Natives returns the sorted, de-duplicated native names of the tools the
// harness removes under sel: what the adapter passes to its harness.
func (d Declaration) Natives(sel Selection) ([]string, error) {
	removed, err := d.Removed(sel)
	if err != nil {
		return nil, err
	}
	r := setOf(removed)
	var out []string
	for _, tl := range d.Tools {
		if r[tl.Name] {
			out = append(out, tl.Native...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func setOf(names []string) map[string]bool {
	s := make(map[string]bool, len(names))
	for _, n := range names {
		s[n] = true
	}
	return s
}
