package schemacheck

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// A side's top-level fields are what `stratos describe`, `stratos schema`
// and the MCP tool of a workflow show its callers, so each needs a
// description. Nested fields need none: the field that holds them already
// says what they are, and requiring one on every nested field cost authors
// a .describe("") per line without telling a caller more.

// topObject is an object schema whose properties are top-level fields of a
// side: the side's root, or one branch of a union output.
type topObject struct {
	schema        map[string]any
	path, pointer string
	// discriminator is the field whose literal values tell the branches of
	// a union output apart ("" when there is none); its values say what it
	// is, so it needs no description.
	discriminator string
}

// topObjects checks the shape of the side's root and returns its top-level
// objects. Both sides may be one object. The output may also be a union of
// objects (z.discriminatedUnion, or z.union of objects): a caller still reads
// fields by name, after telling the branches apart. The input may not, as
// its fields are the named arguments of `stratos run`, of the workflow's MCP
// tool (whose input schema MCP requires to be an object) and of a parent's
// execute(…).
func (w *walker) topObjects() []topObject {
	if isObjectSchema(w.root) {
		return []topObject{{schema: w.root, path: w.side}}
	}
	kw, branches := unionBranches(w.root)
	switch {
	case kw == "":
		w.add(w.side, w.side, "", CodeSchemaNotObject, "",
			"the %s schema must describe an object (z.strictObject({...})), not %s; a workflow without %[1]s data declares z.strictObject({})",
			w.side, schemaSummary(w.root))
		return nil
	case w.side == SideInput:
		w.add(w.side, w.side, "", CodeSchemaNotObject, "",
			"the input schema is a union (%s), but an input must be one object: its fields are the named arguments of `stratos run --input`, of the workflow's MCP tool (MCP requires a tool's input to be an object) and of a parent's execute(…); put the union in a field, as in z.strictObject({ target: z.discriminatedUnion(\"kind\", [...]).describe(\"…\") })",
			kw)
		return nil
	}
	var objs []topObject
	for i, b := range branches {
		path, ptr := w.side+branchSegment(kw, i, branches), "/"+kw+"/"+strconv.Itoa(i)
		s, at := w.deref(b, ptr)
		if !isObjectSchema(s) {
			w.add(w.side, path, ptr, CodeSchemaNotObject, "",
				"branch %d of the output union is %s, but every branch of a union output must be an object, as in z.discriminatedUnion(\"kind\", [z.strictObject({ kind: z.literal(\"done\"), … }), z.strictObject({ kind: z.literal(\"failed\"), … })]): callers read an output by its fields, and a workflow can add fields later without breaking them; put a value of another type in a field",
				i, schemaSummary(b))
			continue
		}
		objs = append(objs, topObject{schema: s, path: path, pointer: at})
	}
	if len(objs) < len(branches) {
		return objs
	}
	if d := discriminator(objs); d != "" {
		for i := range objs {
			objs[i].discriminator = d
		}
	}
	return objs
}

// checkDescriptions reports the top-level fields without a description.
func (w *walker) checkDescriptions(objs []topObject) {
	for _, o := range objs {
		props, _ := o.schema["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			if name == o.discriminator || w.described(props[name], map[string]bool{}) {
				continue
			}
			w.add(w.side, o.path+fieldSegment(name), o.pointer+"/properties/"+escapeToken(name), CodeFieldUndescribed, "",
				"the field has no description; add .describe(\"…\") (an empty string is fine when the name explains itself): `stratos describe` and the workflow's MCP tool show it to callers (nested fields need none)")
		}
	}
}

// unionBranches returns the keyword and branches of a schema that is only a
// union (anyOf or oneOf), or "" when it is not one.
func unionBranches(m map[string]any) (string, []any) {
	if m == nil || m["type"] != nil || m["$ref"] != nil {
		return "", nil
	}
	var kw string
	for _, k := range []string{"anyOf", "oneOf"} {
		if _, ok := m[k]; ok {
			if kw != "" {
				return "", nil // both: an intersection of unions
			}
			kw = k
		}
	}
	branches, _ := m[kw].([]any)
	if len(branches) == 0 {
		return "", nil
	}
	return kw, branches
}

// deref follows a branch's $ref (zod's .meta({id}) or a shared schema) to
// the schema it names, with that schema's pointer; other schemas are their
// own, at ptr.
func (w *walker) deref(s any, ptr string) (map[string]any, string) {
	m, _ := s.(map[string]any)
	seen := map[string]bool{}
	for m != nil && !isObjectSchema(m) {
		ref, ok := m["$ref"].(string)
		if !ok || seen[ref] {
			break
		}
		seen[ref] = true
		target, _ := w.resolve(ref).(map[string]any)
		if target == nil {
			break
		}
		m, ptr = target, strings.TrimPrefix(ref, "#")
	}
	return m, ptr
}

// discriminator returns the field that tells the objects apart: every one
// requires it with literal values (const or enum), and no value is in two
// of them. It is "" when there is no such field, as for a z.union of
// objects.
func discriminator(objs []topObject) string {
	if len(objs) < 2 {
		return ""
	}
	first, _ := objs[0].schema["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(first)) {
		if tellsApart(objs, name) {
			return name
		}
	}
	return ""
}

func tellsApart(objs []topObject, name string) bool {
	seen := map[string]bool{}
	for _, o := range objs {
		props, _ := o.schema["properties"].(map[string]any)
		field, _ := props[name].(map[string]any)
		required, _ := o.schema["required"].([]any)
		values := literalValues(field)
		if values == nil || !slices.Contains(required, any(name)) {
			return false
		}
		for _, v := range values {
			if seen[v] {
				return false
			}
			seen[v] = true
		}
	}
	return true
}

// literalValues returns the JSON text of each value a const or enum schema
// allows, or nil when it allows more than a list of literals.
func literalValues(s map[string]any) []string {
	var values []any
	if v, ok := s["const"]; ok {
		values = []any{v}
	} else if e, ok := s["enum"].([]any); ok {
		values = e
	}
	var out []string
	for _, v := range values {
		b, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		out = append(out, string(b))
	}
	return out
}

// described reports whether a field's schema carries a description key. The
// description may sit on the schema a $ref names (zod's .meta({id})), or, for
// a field described before .nullable(), on the non-null branch of the anyOf
// zod emits; a union counts when every non-null branch is described.
func (w *walker) described(s any, seen map[string]bool) bool {
	m, ok := s.(map[string]any)
	if !ok {
		return false
	}
	if _, ok := m["description"]; ok {
		return true
	}
	if ref, ok := m["$ref"].(string); ok && !seen[ref] {
		seen[ref] = true
		if target := w.resolve(ref); target != nil {
			return w.described(target, seen)
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		branches, _ := m[kw].([]any)
		nonNull := 0
		for _, b := range branches {
			if isNullSchema(b) {
				continue
			}
			nonNull++
			if !w.described(b, seen) {
				return false
			}
		}
		if nonNull > 0 {
			return true
		}
	}
	return false
}
