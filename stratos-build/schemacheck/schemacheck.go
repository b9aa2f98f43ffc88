// Package schemacheck enforces the workflow schema conventions
// (docs/building.md, "Schema conventions") on the JSON Schemas the SDK loader
// derives from a workflow's zod input and output schemas:
//
//   - input and output are objects, and the output may also be a union
//     of objects such as a z.discriminatedUnion (schema_not_object);
//   - every top-level field has a description, which may be empty; the
//     discriminator of a union output and nested fields need none
//     (field_undescribed);
//   - "overrides" is reserved and cannot be a top-level input field
//     (input_overrides_reserved);
//   - nothing JSON Schema cannot represent appears: dates, transforms,
//     refinements, bigints, custom types… (schema_unrepresentable);
//   - input objects, nested ones included, reject unknown fields, that is
//     additionalProperties is false (input_not_strict). Output objects need
//     not be strict.
//
// Check returns every violation, each naming the workflow and the field's
// path, sorted by side and path.
package schemacheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/contract/buildapi"
)

// Violation codes (stable; tools and tests match on them).
const (
	CodeSchemaNotObject        = "schema_not_object"
	CodeFieldUndescribed       = "field_undescribed"
	CodeInputOverridesReserved = "input_overrides_reserved"
	CodeSchemaUnrepresentable  = buildapi.CodeSchemaUnrepresentable
	CodeInputNotStrict         = "input_not_strict"
)

// Sides of a workflow's contract.
const (
	SideInput  = "input"
	SideOutput = "output"
)

// Definition is what the SDK loader reports for a workflow: its input schema
// (zod io:"input"), its output schema (io:"output") and the parts of either
// that JSON Schema could not represent.
type Definition struct {
	Input           json.RawMessage   `json:"input"`
	Output          json.RawMessage   `json:"output"`
	Unrepresentable []Unrepresentable `json:"unrepresentable"`
}

// Unrepresentable is one zod construct without a JSON Schema form.
type Unrepresentable struct {
	Side string `json:"side"` // "input" or "output"
	Path string `json:"path"` // JSON Pointer into that side's schema; "" is the root
	Kind string `json:"kind"` // date, transform, refine, bigint, custom, …
}

// Violation is one broken convention.
type Violation struct {
	Workflow string `json:"workflow"`
	Side     string `json:"side"`
	// Path names the field for people: input.options.depth, output.items[].id,
	// input.labels{}.color (a record's values), input.target<oneOf 1>.tag (a
	// union branch; a nullable field's non-null branch adds no segment).
	Path string `json:"path"`
	// Pointer is the JSON Pointer of the schema at fault in that side's
	// schema, for tools. Fields reached through a $ref are reported at their
	// use, with the pointer into $defs.
	Pointer string `json:"pointer"`
	Code    string `json:"code"`
	Kind    string `json:"kind,omitempty"` // schema_unrepresentable only
	Message string `json:"message"`
}

func (v Violation) String() string { return v.Message }

// Check returns every convention the definition of workflow breaks, sorted
// by side, path, code and kind; nil when it conforms.
func Check(workflow string, def Definition) []Violation {
	c := &checker{workflow: workflow}
	sides := map[string]*walker{}
	for _, side := range []string{SideInput, SideOutput} {
		raw := def.Input
		if side == SideOutput {
			raw = def.Output
		}
		sides[side] = c.checkSide(side, raw)
	}
	for _, u := range def.Unrepresentable {
		c.unrepresentable(u, sides[u.Side])
	}
	return c.sorted()
}

type checker struct {
	workflow string
	found    []Violation
}

func (c *checker) add(side, path, pointer, code, kind, format string, args ...any) {
	c.found = append(c.found, Violation{
		Workflow: c.workflow, Side: side, Path: path, Pointer: pointer, Code: code, Kind: kind,
		Message: fmt.Sprintf("workflow %q: %s: ", c.workflow, path) + fmt.Sprintf(format, args...),
	})
}

// checkSide decodes and walks one side's schema and returns its walker (nil
// when the schema is not JSON), which knows where unrepresentable parts are.
func (c *checker) checkSide(side string, raw json.RawMessage) *walker {
	if len(bytes.TrimSpace(raw)) == 0 {
		c.add(side, side, "", CodeSchemaNotObject, "", "the %s schema is missing; declare it with z.strictObject({...})", side)
		return nil
	}
	var root any
	if err := json.Unmarshal(raw, &root); err != nil {
		c.add(side, side, "", CodeSchemaNotObject, "", "the %s schema is not valid JSON: %v", side, err)
		return nil
	}
	m, _ := root.(map[string]any)
	w := &walker{checker: c, side: side, root: m, defPaths: map[string]string{}}
	if m == nil {
		c.add(side, side, "", CodeSchemaNotObject, "",
			"the %s schema must describe an object (z.strictObject({...})), not %s; a workflow without %[1]s data declares z.strictObject({})",
			side, schemaSummary(root))
	} else {
		w.checkDescriptions(w.topObjects())
	}
	if side == SideInput {
		if props, ok := m["properties"].(map[string]any); ok {
			if _, reserved := props["overrides"]; reserved {
				c.add(side, side+fieldSegment("overrides"), "/properties/overrides", CodeInputOverridesReserved, "",
					"the top-level input name \"overrides\" is reserved for the overrides a parent binds to a child workflow; rename the field")
			}
		}
	}
	w.walk(root, side, "")
	w.walkUnusedDefs()
	return w
}

// unrepresentable reports one part the loader found without a JSON Schema form.
func (c *checker) unrepresentable(u Unrepresentable, w *walker) {
	path := u.Side
	if w != nil {
		path = w.pointerPath(u.Path)
	}
	c.add(u.Side, path, u.Path, CodeSchemaUnrepresentable, u.Kind,
		"%s cannot be represented in JSON Schema, so it cannot be part of the public %s contract; %s",
		kindName(u.Kind), u.Side, kindAdvice(u.Kind))
}

func kindName(kind string) string {
	switch kind {
	case "refine":
		return "a refinement (.refine/.superRefine/.check)"
	case "transform":
		return "a transform (.transform/z.preprocess)"
	case "custom":
		return "a custom type (z.custom/z.instanceof)"
	case "":
		return "a schema part"
	}
	return fmt.Sprintf("a %s (z.%s())", kind, kind)
}

func kindAdvice(kind string) string {
	switch kind {
	case "date":
		return "use a string such as z.iso.datetime() and convert it inside run"
	case "bigint":
		return "use z.number().int() or a string and convert it inside run"
	case "transform", "refine", "custom":
		return "declare the JSON shape in the schema and do the check or conversion inside run"
	}
	return "use JSON types (strings, numbers, booleans, null, arrays, objects) and convert inside run"
}

// schemaSummary names what a non-object root is, for the message.
func schemaSummary(root any) string {
	m, ok := root.(map[string]any)
	if !ok {
		b, _ := json.Marshal(root)
		return string(b)
	}
	if t, ok := m["type"]; ok {
		b, _ := json.Marshal(t)
		return "type " + string(b)
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "$ref", "enum", "const"} {
		if _, ok := m[k]; ok {
			return "a schema with " + k
		}
	}
	return "a schema without a type"
}

// sorted orders violations by side, path, code, kind and message, and drops
// exact duplicates (the loader may report one part once per zod check).
func (c *checker) sorted() []Violation {
	slices.SortFunc(c.found, func(a, b Violation) int {
		for _, d := range [][2]string{{a.Side, b.Side}, {a.Path, b.Path}, {a.Code, b.Code}, {a.Kind, b.Kind}, {a.Message, b.Message}} {
			if n := strings.Compare(d[0], d[1]); n != 0 {
				return n
			}
		}
		return 0
	})
	return slices.Compact(c.found)
}
