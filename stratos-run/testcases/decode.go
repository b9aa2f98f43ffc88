package testcases

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// A field of a case file with the wrong type or an unknown name is reported
// by its path in the case and the value found there, at the line of the
// field: a case file is written by hand, and encoding/json's own messages
// name Go types ("cannot unmarshal string into Go struct field
// Case.allowRealHarness of type bool") and neither the path nor the value
// ("unknown field \"eur\"", of which mapping?).

// fieldError is a problem of one field of a case file, at its line (0:
// the line is not known, the case's is used).
type fieldError struct {
	line int
	msg  string
}

func (e *fieldError) Error() string { return e.msg }

// lineOf is the line of err's field, 0 when it names none.
func lineOf(err error) int {
	var fe *fieldError
	if errors.As(err, &fe) {
		return fe.line
	}
	return 0
}

// explain turns a decoding error of raw (n as JSON) into v's type into one
// that names the field, what it must be and what it is; other errors are
// returned as they are.
func explain(err error, n *yaml.Node, raw []byte, v any) error {
	var mistyped *json.UnmarshalTypeError
	if errors.As(err, &mistyped) {
		path, value, ok := valueAt(raw, mistyped.Offset)
		if !ok {
			return err
		}
		return &fieldError{line: lineAt(n, path), msg: fmt.Sprintf("%s: must be %s, got %s", showPath(path), want(mistyped.Type), cut(value))}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		path, known := unknownField(raw, reflect.TypeOf(v).Elem())
		if path == nil {
			return err
		}
		msg := fmt.Sprintf("unknown field %s (known: %s)", name, strings.Join(known, ", "))
		if parent := showPath(path[:len(path)-1]); parent != "" {
			msg = parent + ": " + msg
		}
		return &fieldError{line: lineAt(n, path), msg: msg}
	}
	return err
}

// want says what a value of type t is, as a case file writes it.
func want(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number (that fits in 64 bits)"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Struct:
		return "a mapping {" + strings.Join(jsonFields(t), ", ") + "}"
	case reflect.Map:
		return "a mapping"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return t.String()
}

// jsonFields are the JSON names of a struct's fields.
func jsonFields(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && name != "-" && name != "" {
			names = append(names, name)
		}
	}
	return names
}

// valueAt finds the value of raw (compact JSON) that encoding/json
// reports at offset: a literal ends there, an object or array starts just
// before it. It returns the value's path (keys, and [i] for elements) and
// its JSON.
func valueAt(raw []byte, offset int64) ([]string, []byte, bool) {
	var found []string
	var value []byte
	var walk func(v []byte, start int64, path []string) bool
	walk = func(v []byte, start int64, path []string) bool {
		if offset <= start || offset > start+int64(len(v)) {
			return false // not in this value: its siblings' nesting is not walked
		}
		if len(v) > 0 && (v[0] == '{' || v[0] == '[') {
			if start+1 == offset {
				found, value = slices.Clone(path), v
				return true
			}
			return eachChild(v, func(key string, child []byte, at int64) bool {
				return walk(child, start+at, append(path, key))
			})
		}
		if start+int64(len(v)) == offset {
			found, value = slices.Clone(path), v
			return true
		}
		return false
	}
	ok := walk(raw, 0, nil)
	return found, value, ok
}

// eachChild calls f with each member of an object (its key) or element of
// an array ("[i]") of compact JSON, and the child's offset in v, until f
// returns true.
func eachChild(v []byte, f func(key string, child []byte, at int64) bool) bool {
	dec := json.NewDecoder(bytes.NewReader(v))
	if _, err := dec.Token(); err != nil {
		return false
	}
	for i := 0; dec.More(); i++ {
		key := "[" + strconv.Itoa(i) + "]"
		if v[0] == '{' {
			t, err := dec.Token()
			if err != nil {
				return false
			}
			key, _ = t.(string)
		}
		var child json.RawMessage
		if err := dec.Decode(&child); err != nil {
			return false
		}
		if f(key, child, dec.InputOffset()-int64(len(child))) {
			return true
		}
	}
	return false
}

// unknownField finds the first member of raw, in document order, that the
// struct it decodes into does not have, with that struct's fields.
func unknownField(raw []byte, t reflect.Type) ([]string, []string) {
	var found, known []string
	var walk func(v []byte, t reflect.Type, path []string) bool
	walk = func(v []byte, t reflect.Type, path []string) bool {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || len(v) == 0 || v[0] != '{' {
			return false
		}
		return eachChild(v, func(key string, child []byte, _ int64) bool {
			for f := range t.Fields() {
				if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == key && f.IsExported() {
					return walk(child, f.Type, append(path, key))
				}
			}
			found, known = slices.Clone(append(path, key)), jsonFields(t)
			return true
		})
	}
	walk(raw, t, nil)
	return found, known
}

// showPath is a path as a case file's reader says it: expect.calls.critic,
// scripts[0].
func showPath(path []string) string {
	var b strings.Builder
	for _, p := range path {
		if b.Len() > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// lineAt is the line of the value at path under n, 0 when it cannot be
// found there (a field that came through a merge key).
func lineAt(n *yaml.Node, path []string) int {
	line := 0
	for _, p := range path {
		for n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		switch {
		case n.Kind == yaml.MappingNode:
			var next *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == p {
					line, next = n.Content[i].Line, n.Content[i+1]
				}
			}
			if next == nil {
				return 0
			}
			n = next
		case n.Kind == yaml.SequenceNode && strings.HasPrefix(p, "["):
			i, err := strconv.Atoi(strings.Trim(p, "[]"))
			if err != nil || i >= len(n.Content) {
				return 0
			}
			n = n.Content[i]
			line = n.Line
		default:
			return 0
		}
	}
	return line
}

// cut is a JSON value as a message quotes it, cut short.
func cut(v []byte) string {
	if len(v) > 80 {
		return string(v[:80]) + "…"
	}
	return string(v)
}
