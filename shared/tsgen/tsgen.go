// Package tsgen writes TypeScript declarations of Go types as encoding/json
// writes them, with the types' doc comments: the one generator of the
// TypeScript views of the Go contracts (the event vocabulary's events.ts,
// the agent protocol's agent-protocol.ts, the harness names). Each view's
// package decides what its file declares and in which order; tsgen decides
// how a Go type reads in TypeScript.
//
// A struct is an interface of its JSON fields: a pointer, omitempty or
// omitzero field is optional, json.RawMessage and interfaces are unknown, an
// embedded struct is extended (Partial<…> when embedded by pointer), and a
// `ts:"…"` struct tag gives the field's type where the Go type is wider than
// the JSON it holds. A named struct used but not yet declared is declared
// after the type that uses it.
package tsgen

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Options are what a generated file says about its types beyond their Go
// declarations.
type Options struct {
	// Docs are the doc comments of the declared types and their fields.
	Docs Docs
	// Names renames Go types, e.g. those whose names would shadow
	// TypeScript's own (Error).
	Names map[reflect.Type]string
	// Aliases are Go types given as a TypeScript type: declared as a type
	// alias of it when the file declares them, else written inline.
	Aliases map[reflect.Type]string
}

// Writer accumulates one TypeScript file.
type Writer struct {
	b       strings.Builder
	opts    Options
	written map[reflect.Type]bool
	named   map[reflect.Type]bool // written or to be: used by name
	pending []reflect.Type        // used before being declared
}

// NewWriter returns an empty file.
func NewWriter(opts Options) *Writer {
	return &Writer{opts: opts, written: map[reflect.Type]bool{}, named: map[reflect.Type]bool{}}
}

// Bytes returns the file written so far.
func (w *Writer) Bytes() []byte { return []byte(w.b.String()) }

// Line writes one line, formatted as fmt.Sprintf does.
func (w *Writer) Line(format string, args ...any) { writeLine(&w.b, format, args...) }

func writeLine(b *strings.Builder, format string, args ...any) {
	fmt.Fprintf(b, format+"\n", args...)
}

// Name returns t's TypeScript name.
func (w *Writer) Name(t reflect.Type) string {
	if n, ok := w.opts.Names[t]; ok {
		return n
	}
	return t.Name()
}

// Expect announces types the caller declares later, in its own order:
// until then they are used by name, not declared after their first user.
func (w *Writer) Expect(types ...reflect.Type) {
	for _, t := range types {
		w.named[t] = true
	}
}

// Declare writes t's declaration (nothing if it is written already), then
// those of the named structs it uses that are neither written nor expected.
func (w *Writer) Declare(t reflect.Type) error {
	if w.written[t] {
		return nil
	}
	w.written[t], w.named[t] = true, true
	if err := w.declareOne(t); err != nil {
		return err
	}
	for len(w.pending) > 0 {
		next := w.pending[0]
		w.pending = w.pending[1:]
		if err := w.Declare(next); err != nil {
			return err
		}
	}
	return nil
}

// declareOne writes t as a type alias or an interface, after a blank line
// and its doc comment.
func (w *Writer) declareOne(t reflect.Type) error {
	if alias, ok := w.opts.Aliases[t]; ok {
		w.Line("")
		w.Comment(w.opts.Docs.Type(t.Name()), "")
		w.Line("export type %s = %s;", w.Name(t), alias)
		return nil
	}
	if t.Kind() != reflect.Struct {
		return fmt.Errorf("%s: only structs and aliases are declared", t)
	}
	var extends []string
	var body strings.Builder
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			extends = append(extends, w.embedded(f.Type))
			continue
		}
		if name, _ := jsonName(f); name == "" || !f.IsExported() {
			continue
		}
		typ, err := w.FieldType(f)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
		}
		w.member(&body, t, f, typ)
	}
	w.Line("")
	w.Comment(w.opts.Docs.Type(t.Name()), "")
	head := "export interface " + w.Name(t)
	if len(extends) > 0 {
		head += " extends " + strings.Join(extends, ", ")
	}
	if body.Len() == 0 {
		w.Line("%s {}", head)
		return nil
	}
	w.Line("%s {", head)
	w.b.WriteString(body.String())
	w.Line("}")
	return nil
}

// embedded is what an interface extends for an embedded struct: its
// fields, which are optional when it is embedded by pointer.
func (w *Writer) embedded(t reflect.Type) string {
	partial := t.Kind() == reflect.Pointer
	if partial {
		t = t.Elem()
	}
	w.use(t)
	if partial {
		return "Partial<" + w.Name(t) + ">"
	}
	return w.Name(t)
}

// use queues t's declaration when t is neither written nor expected.
func (w *Writer) use(t reflect.Type) {
	if !w.named[t] {
		w.named[t] = true
		w.pending = append(w.pending, t)
	}
}

// Member writes one interface member of owner, the struct field f, as
// type typ, with its doc comment.
func (w *Writer) Member(owner reflect.Type, f reflect.StructField, typ string) {
	w.member(&w.b, owner, f, typ)
}

func (w *Writer) member(b *strings.Builder, owner reflect.Type, f reflect.StructField, typ string) {
	name, optional := jsonName(f)
	mark := ""
	if optional {
		mark = "?"
	}
	comment(b, w.opts.Docs.Field(owner.Name(), f.Name), "  ")
	writeLine(b, "  %s%s: %s;", name, mark, typ)
}

// jsonName is f's JSON name ("" when encoding/json leaves it out) and
// whether it may be absent.
func jsonName(f reflect.StructField) (string, bool) {
	name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" {
		return "", false
	}
	return name, strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
}

// FieldType is f's TypeScript type: its ts tag, else its Go type's.
func (w *Writer) FieldType(f reflect.StructField) (string, error) {
	if ts := f.Tag.Get("ts"); ts != "" {
		return ts, nil
	}
	return w.Type(f.Type)
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// Type is the TypeScript type of the JSON encoding/json writes for t.
func (w *Writer) Type(t reflect.Type) (string, error) {
	if alias, ok := w.opts.Aliases[t]; ok {
		if w.named[t] {
			return w.Name(t), nil
		}
		return alias, nil
	}
	if t == rawMessage {
		return "unknown", nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return w.Type(t.Elem())
	case reflect.Struct:
		if t.Name() == "" {
			return "", fmt.Errorf("anonymous struct %s", t)
		}
		w.use(t)
		return w.Name(t), nil
	case reflect.String:
		return "string", nil
	case reflect.Bool:
		return "boolean", nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number", nil
	case reflect.Interface:
		return "unknown", nil
	case reflect.Slice:
		elem, err := w.Type(t.Elem())
		return elem + "[]", err
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return "", fmt.Errorf("map key %s is not a string", t.Key())
		}
		elem, err := w.Type(t.Elem())
		return "Record<string, " + elem + ">", err
	}
	return "", fmt.Errorf("no TypeScript type for %s", t)
}

// Comment writes text as a /** … */ block indented by pad; nothing for no
// text.
func (w *Writer) Comment(text, pad string) { comment(&w.b, text, pad) }

func comment(b *strings.Builder, text, pad string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	lines := strings.Split(strings.ReplaceAll(text, "*/", "*\\/"), "\n")
	if len(lines) == 1 {
		writeLine(b, "%s/** %s */", pad, lines[0])
		return
	}
	writeLine(b, "%s/**", pad)
	for _, l := range lines {
		writeLine(b, "%s", strings.TrimRight(pad+" * "+l, " "))
	}
	writeLine(b, "%s */", pad)
}

// StringUnion is the TypeScript union of values as string literals:
// "a" | "b"; never for no values.
func StringUnion(values []string) string {
	if len(values) == 0 {
		return "never"
	}
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = strconv.Quote(v)
	}
	return strings.Join(quoted, " | ")
}
