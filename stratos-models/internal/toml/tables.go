package toml

import "strings"

// tableKind records how a table came to exist, which decides whether a later
// header or dotted key may add to it (TOML 1.0 "Table" and "Inline Table").
type tableKind int

const (
	kindImplicit tableKind = iota // created as the parent of a [header]; may be defined once later
	kindHeader                    // defined by its own [header] (or the root)
	kindDotted                    // created by a dotted key; extendable by dotted keys only
	kindInline                    // an inline table: closed for good
)

type table struct {
	kind tableKind
	keys map[string]any // *table, *array or a scalar
}

// array is a value array, or an array of tables built by [[headers]].
type array struct {
	items    []any
	ofTables bool // built by [[header]]; only those may be appended to
}

func newTable(kind tableKind) *table { return &table{kind: kind, keys: map[string]any{}} }

// freeze makes t and everything inside it immutable (inline tables).
func (t *table) freeze() {
	t.kind = kindInline
	for _, v := range t.keys {
		freezeValue(v)
	}
}

func freezeValue(v any) {
	switch v := v.(type) {
	case *table:
		v.freeze()
	case *array:
		for _, item := range v.items {
			freezeValue(item)
		}
	}
}

func joinKey(key []string) string { return strings.Join(key, ".") }

// openHeader finds or creates the table named by a [header] or [[header]].
// It returns a message instead of an error so the caller can add the
// header's position.
func (root *table) openHeader(key []string, arrayOfTables bool) (*table, string) {
	t := root
	for i, part := range key[:len(key)-1] {
		next, msg := t.descend(part, joinKey(key[:i+1]))
		if msg != "" {
			return nil, msg
		}
		t = next
	}
	last := key[len(key)-1]
	existing, ok := t.keys[last]
	if arrayOfTables {
		if !ok {
			existing = &array{ofTables: true}
			t.keys[last] = existing
		}
		arr, isArr := existing.(*array)
		if !isArr || !arr.ofTables {
			return nil, "cannot append to " + joinKey(key) + ": it is not an array of tables"
		}
		nt := newTable(kindHeader)
		arr.items = append(arr.items, nt)
		return nt, ""
	}
	if !ok {
		nt := newTable(kindHeader)
		t.keys[last] = nt
		return nt, ""
	}
	if et, isTable := existing.(*table); isTable && et.kind == kindImplicit {
		et.kind = kindHeader
		return et, ""
	}
	return nil, "table " + joinKey(key) + " is defined more than once"
}

// descend walks one step of a header path, creating an implicit table or
// entering the last element of an array of tables.
func (t *table) descend(part, path string) (*table, string) {
	v, ok := t.keys[part]
	if !ok {
		nt := newTable(kindImplicit)
		t.keys[part] = nt
		return nt, ""
	}
	switch v := v.(type) {
	case *table:
		if v.kind == kindInline {
			return nil, "cannot extend inline table " + path
		}
		return v, ""
	case *array:
		if !v.ofTables || len(v.items) == 0 {
			return nil, "cannot extend " + path + ": it is a value array"
		}
		return v.items[len(v.items)-1].(*table), ""
	default:
		return nil, "cannot use " + path + " as a table: it already has a value"
	}
}

// setDotted assigns key = v inside t, creating dotted tables as needed.
func (t *table) setDotted(key []string, v any) string {
	for i, part := range key[:len(key)-1] {
		existing, ok := t.keys[part]
		if !ok {
			nt := newTable(kindDotted)
			t.keys[part] = nt
			t = nt
			continue
		}
		et, isTable := existing.(*table)
		if !isTable || et.kind != kindDotted {
			return "cannot add " + joinKey(key) + ": " + joinKey(key[:i+1]) + " is already defined"
		}
		t = et
	}
	last := key[len(key)-1]
	if _, ok := t.keys[last]; ok {
		return "duplicate key " + joinKey(key)
	}
	t.keys[last] = v
	return ""
}

// plain converts the parse tree into map[string]any / []any values.
func (t *table) plain() map[string]any {
	m := make(map[string]any, len(t.keys))
	for k, v := range t.keys {
		m[k] = plainValue(v)
	}
	return m
}

func plainValue(v any) any {
	switch v := v.(type) {
	case *table:
		return v.plain()
	case *array:
		items := make([]any, len(v.items))
		for i, item := range v.items {
			items[i] = plainValue(item)
		}
		return items
	default:
		return v
	}
}
