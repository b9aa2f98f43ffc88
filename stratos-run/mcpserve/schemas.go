package mcpserve

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// Object is a JSON object passed on as it was read: a workflow's output,
// which the build's schema conventions make an object (or a union of
// objects). Keeping the bytes keeps its key order and its numbers exact.
type Object json.RawMessage

// MarshalJSON writes the object as it was read.
func (o Object) MarshalJSON() ([]byte, error) {
	if len(o) == 0 {
		return []byte("null"), nil
	}
	return o, nil
}

// UnmarshalJSON keeps a copy of the bytes.
func (o *Object) UnmarshalJSON(b []byte) error {
	*o = append((*o)[:0], b...)
	return nil
}

// inferSchema infers the JSON Schema of T for a tool's input or output, in
// the portable form strict clients accept without warnings: every schema
// has a type, and no type admits null.
//
// jsonschema-go types a Go slice as ["null", "array"] (a nil slice encodes
// as null) and an interface or a json.RawMessage as anything, or a list of
// bytes. The tools' results never hold null: their lists are empty rather
// than nil, and their pointer fields are omitempty, so an absent value is
// left out, never null. So every type that admits null loses it, and the
// values of open types say they are objects.
func inferSchema[T any]() (*jsonschema.Schema, error) {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[Object]():           {Type: "object"},
		reflect.TypeFor[eventapi.Details](): {Type: "object"},
	}})
	if err != nil {
		return nil, err
	}
	withoutNull(s)
	return s, nil
}

// withoutNull removes "null" from every type list of s and of the schemas
// inference nests in it (properties, list items, map values).
func withoutNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 {
		types := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
		s.Types = nil
		if len(types) == 1 {
			s.Type = types[0]
		} else {
			s.Types = types
		}
	}
	for _, p := range s.Properties {
		withoutNull(p)
	}
	withoutNull(s.Items)
	withoutNull(s.AdditionalProperties)
}
