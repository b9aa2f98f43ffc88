// Package eventgen writes the event vocabulary's documents from its Go
// types, their one source: the JSON Schema of an events.jsonl line
// (docs/events.schema.json, for programs in any language) and the
// TypeScript view of it (the SDK's src/events.ts and the web page's
// events.d.ts, written by package tsgen as every TypeScript view of the Go
// contracts is). Doc comments come from eventapi's source files. Tests fail
// when a checked-in copy is stale; scripts/gen-docs rewrites them.
package eventgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/tsgen"
)

// SchemaID is the schema's $id.
const SchemaID = "https://stratos.dev/schemas/events.schema.json"

// ReadDocs reads the doc comments of the eventapi package whose sources
// are in dir.
func ReadDocs(dir string) (tsgen.Docs, error) {
	return tsgen.ReadDocs(tsgen.Source{Dir: dir, ImportPath: reflect.TypeFor[eventapi.Event]().PkgPath()})
}

// Schema returns the JSON Schema (draft 2020-12) of one events.jsonl line
// of the current version: the envelope, and the details of its type.
func Schema(docs tsgen.Docs) ([]byte, error) {
	opts := &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[json.RawMessage](): {Description: "any JSON value"},
		reflect.TypeFor[eventapi.Error]():  {Ref: "#/$defs/Error"},
		reflect.TypeFor[eventapi.IDs]():    {Ref: "#/$defs/IDs"},
	}}
	envelope, err := jsonschema.For[eventapi.Event](opts)
	if err != nil {
		return nil, err
	}
	root := &jsonschema.Schema{
		Schema:      "https://json-schema.org/draft/2020-12/schema",
		ID:          SchemaID,
		Title:       "A line of a Stratos run's events.jsonl",
		Description: fmt.Sprintf("Version %d of the event vocabulary. Lines without \"v\" are version 0, written before versions existed; readers map them.", eventapi.Version),
		Defs:        map[string]*jsonschema.Schema{},
	}
	for _, t := range []reflect.Type{reflect.TypeFor[eventapi.Error](), reflect.TypeFor[eventapi.IDs]()} {
		d, err := jsonschema.ForType(t, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name(), err)
		}
		d.Description = docs.Type(t.Name())
		describe(d, t, docs)
		root.Defs[t.Name()] = d
	}
	for _, k := range eventapi.Kinds() {
		t := reflect.TypeOf(k).Elem()
		d, err := jsonschema.ForType(t, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name(), err)
		}
		d.Description = docs.Type(t.Name())
		describe(d, t, docs)
		root.Defs[t.Name()] = d
		line := envelope.CloneSchemas()
		line.Description = ""
		line.Properties["v"] = &jsonschema.Schema{Const: constOf(eventapi.Version)}
		line.Properties["type"] = &jsonschema.Schema{Const: constOf(k.EventType())}
		line.Properties["details"] = &jsonschema.Schema{Ref: "#/$defs/" + t.Name()}
		line.Title = k.EventType()
		root.OneOf = append(root.OneOf, line)
	}
	dropNullBesideRefs(root)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// describe sets the properties' descriptions from the fields' comments.
func describe(s *jsonschema.Schema, t reflect.Type, docs tsgen.Docs) {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				// Present only when set: its fields are not required.
				ft = ft.Elem()
				s.Required = slices.DeleteFunc(s.Required, func(name string) bool { return jsonNames(ft)[name] })
			}
			describe(s, ft, docs)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		p := s.Properties[name]
		if p == nil {
			continue
		}
		if text := docs.Field(t.Name(), f.Name); text != "" {
			p.Description = text
		}
		if values := tsStrings(f.Tag.Get("ts")); values != nil {
			p.Enum = values
		}
	}
}

func constOf(v any) *any { return &v }

// tsStrings reads a ts tag that is a union of string literals
// (`"a" | "b"`) as the values it allows; nil for any other tag.
func tsStrings(tag string) []any {
	if tag == "" {
		return nil
	}
	var values []any
	for _, part := range strings.Split(tag, "|") {
		var v string
		if json.Unmarshal([]byte(strings.TrimSpace(part)), &v) != nil {
			return nil
		}
		values = append(values, v)
	}
	return values
}

// dropNullBesideRefs clears the type of every schema that is a reference:
// For writes a pointer field as "null or the type", but the vocabulary's
// pointer fields are omitted when empty, never null, and a type beside a
// $ref would have to hold as well as the reference.
func dropNullBesideRefs(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.Ref != "" {
		s.Type, s.Types = "", nil
	}
	for _, c := range s.Properties {
		dropNullBesideRefs(c)
	}
	for _, c := range s.Defs {
		dropNullBesideRefs(c)
	}
	for _, c := range s.OneOf {
		dropNullBesideRefs(c)
	}
	dropNullBesideRefs(s.Items)
	dropNullBesideRefs(s.AdditionalProperties)
}

// jsonNames are the JSON names of t's fields.
func jsonNames(t reflect.Type) map[string]bool {
	names := map[string]bool{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names[name] = true
		}
	}
	return names
}
