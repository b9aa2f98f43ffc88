package schemacheck

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// walker visits every schema of one side, checking input objects for
// strictness (descriptions are the top-level fields' alone, fields.go). A
// $defs entry is walked once, at its
// first use in walking order (keys sorted), so that a field in it is named by
// a path a person recognises (input.tree.children[].name) rather than by
// zod's generated def names; defs nothing refers to are walked at
// <side>.$defs.<name>.
type walker struct {
	*checker
	side     string
	root     map[string]any
	defPaths map[string]string // "#/$defs/<key>" → the path it was walked at
}

func (w *walker) walk(s any, path, ptr string) {
	m, ok := s.(map[string]any)
	if !ok {
		return // a boolean schema has no fields
	}
	if ref, ok := m["$ref"].(string); ok {
		w.follow(ref, path)
	}
	if isObjectSchema(m) {
		w.object(m, path, ptr)
	}
	if items, ok := m["items"]; ok {
		w.walk(items, path+"[]", ptr+"/items")
	}
	if prefix, ok := m["prefixItems"].([]any); ok {
		for i, s := range prefix {
			w.walk(s, path+"["+strconv.Itoa(i)+"]", ptr+"/prefixItems/"+strconv.Itoa(i))
		}
	}
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		branches, _ := m[kw].([]any)
		for i, b := range branches {
			w.walk(b, path+branchSegment(kw, i, branches), ptr+"/"+kw+"/"+strconv.Itoa(i))
		}
	}
}

// object checks one object schema and walks its fields and record values.
func (w *walker) object(m map[string]any, path, ptr string) {
	if w.side == SideInput && !isRecord(m) && m["additionalProperties"] != false {
		w.add(w.side, path, ptr, CodeInputNotStrict, "",
			"this input object accepts unknown fields (%s); declare it with z.strictObject({...}) so that unknown fields are rejected instead of silently stripped or passed on",
			additionalPropertiesSummary(m))
	}
	props, _ := m["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		w.walk(props[name], path+fieldSegment(name), ptr+"/properties/"+escapeToken(name))
	}
	if ap, ok := m["additionalProperties"].(map[string]any); ok {
		w.walk(ap, path+"{}", ptr+"/additionalProperties")
	}
	patterns, _ := m["patternProperties"].(map[string]any)
	for _, p := range slices.Sorted(maps.Keys(patterns)) {
		w.walk(patterns[p], path+"{}", ptr+"/patternProperties/"+escapeToken(p))
	}
}

// follow walks the def a $ref names, the first time it is reached.
func (w *walker) follow(ref, path string) {
	if _, walked := w.defPaths[ref]; walked || ref == "#" {
		return // the root is walked anyway
	}
	target := w.resolve(ref)
	if target == nil {
		return // not a local def; the wrapper generator reports it
	}
	w.defPaths[ref] = path
	w.walk(target, path, strings.TrimPrefix(ref, "#"))
}

// walkUnusedDefs walks the defs no walked schema referred to.
func (w *walker) walkUnusedDefs() {
	for _, kw := range []string{"$defs", "definitions"} {
		defs, _ := w.root[kw].(map[string]any)
		for _, key := range slices.Sorted(maps.Keys(defs)) {
			ref := "#/" + kw + "/" + escapeToken(key)
			if _, walked := w.defPaths[ref]; !walked {
				path := w.side + "." + kw + fieldSegment(key)
				w.defPaths[ref] = path
				w.walk(defs[key], path, strings.TrimPrefix(ref, "#"))
			}
		}
	}
}

// resolve returns the schema "#/$defs/<key>" or "#/definitions/<key>" names.
func (w *walker) resolve(ref string) any {
	for _, kw := range []string{"$defs", "definitions"} {
		if key, ok := strings.CutPrefix(ref, "#/"+kw+"/"); ok {
			defs, _ := w.root[kw].(map[string]any)
			if s, ok := defs[unescapeToken(key)]; ok {
				return s
			}
		}
	}
	return nil
}

// isObjectSchema reports whether a schema describes an object.
func isObjectSchema(m map[string]any) bool {
	if m == nil {
		return false
	}
	switch t := m["type"].(type) {
	case string:
		return t == "object"
	case []any:
		return slices.Contains(t, any("object"))
	case nil:
		_, hasProps := m["properties"]
		return hasProps
	}
	return false
}

// isRecord reports whether an object schema is a record (z.record): it
// declares no fields, only a schema every key's value must match, so it has
// no unknown fields to reject.
func isRecord(m map[string]any) bool {
	if _, hasProps := m["properties"]; hasProps {
		return false
	}
	_, hasNames := m["propertyNames"]
	ap, hasAP := m["additionalProperties"]
	return hasNames || (hasAP && ap != false)
}

func isNullSchema(s any) bool {
	m, ok := s.(map[string]any)
	return ok && m["type"] == "null"
}

func additionalPropertiesSummary(m map[string]any) string {
	switch ap, ok := m["additionalProperties"]; {
	case !ok:
		return "additionalProperties is absent, as for a plain z.object()"
	case ap == true:
		return "additionalProperties is true"
	default:
		if s, ok := ap.(map[string]any); ok && len(s) == 0 {
			return "additionalProperties is {}, as for z.looseObject() or .passthrough()"
		}
		return "additionalProperties is a schema, as for .catchall()"
	}
}
