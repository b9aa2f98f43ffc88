package wrappergen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Operator precedence of a TypeScript type expression, so that composing
// expressions adds parentheses exactly where the grammar needs them.
const (
	precUnion        = iota // A | B
	precIntersection        // A & B
	precPrimary             // everything that can take a [] suffix unparenthesised
)

// tsType is a rendered type expression. Multi-line object types are indented
// for the nesting depth they were rendered at.
type tsType struct {
	text string
	prec int
}

var (
	tsUnknown = tsType{"unknown", precPrimary}
	tsNever   = tsType{"never", precPrimary}
)

// converter turns one side's JSON Schema (input or output) into TypeScript.
// It stops at the first construct it cannot express and reports its pointer.
type converter struct {
	side     string // "input" or "output", for error messages
	root     *node
	rootName string            // the TS name "#" refers to
	defNames map[string]string // "#/$defs/<key>" → TS name
	err      *SchemaError
}

// fail records the first error; conversion continues with `unknown` so the
// caller gets one precise error instead of a cascade.
func (c *converter) fail(ptr, format string, args ...any) tsType {
	if c.err == nil {
		c.err = &SchemaError{Side: c.side, Pointer: ptr, Message: fmt.Sprintf(format, args...)}
	}
	return tsUnknown
}

// typeOf renders the schema n found at JSON pointer ptr; depth is the
// indentation level (two spaces each) of the line the expression starts on.
func (c *converter) typeOf(n *node, ptr string, depth int) tsType {
	switch n.kind {
	case kindBool:
		if n.boolean {
			return tsUnknown
		}
		return tsNever
	case kindObject:
	default:
		return c.fail(ptr, "a schema must be an object or a boolean, found %s", compactJSON(n))
	}
	var parts []tsType
	if ref := n.get("$ref"); ref != nil {
		parts = append(parts, c.refType(ref, ptr+"/$ref"))
	}
	for _, k := range []string{"$dynamicRef", "$recursiveRef"} {
		if n.has(k) {
			return c.fail(ptr+"/"+k, "%s cannot be expressed as a TypeScript type", k)
		}
	}
	if t, ok := c.valueType(n, ptr, depth); ok {
		parts = append(parts, t)
	}
	if b := n.get("anyOf"); b != nil {
		parts = append(parts, union(c.branches(b, ptr+"/anyOf", depth)))
	}
	if b := n.get("oneOf"); b != nil {
		parts = append(parts, union(c.branches(b, ptr+"/oneOf", depth)))
	}
	if b := n.get("allOf"); b != nil {
		parts = append(parts, c.branches(b, ptr+"/allOf", depth)...)
	}
	if not := n.get("not"); not != nil && isEmptySchema(not) {
		// {"not":{}} is what zod emits for z.never(). Other `not` schemas only
		// narrow the value; dropping them widens the type, like minLength.
		parts = append(parts, tsNever)
	}
	return intersection(parts)
}

// valueType renders const, enum or type (in that order of precedence: const
// and enum already pin the value, a sibling `type` adds nothing). Schemas
// without `type` but with object or array keywords are typed by those.
func (c *converter) valueType(n *node, ptr string, depth int) (tsType, bool) {
	if v := n.get("const"); v != nil {
		return literalType(v, depth), true
	}
	if e := n.get("enum"); e != nil {
		if e.kind != kindArray {
			return c.fail(ptr+"/enum", "enum must be an array"), true
		}
		var lits []tsType
		for _, v := range e.items {
			lits = append(lits, literalType(v, depth))
		}
		return union(lits), true
	}
	if t := n.get("type"); t != nil {
		return c.typeKeyword(n, t, ptr, depth), true
	}
	switch {
	case n.has("properties") || n.has("additionalProperties") || n.has("propertyNames") || n.has("patternProperties"):
		return c.objectType(n, ptr, depth), true
	case n.has("items") || n.has("prefixItems"):
		return c.arrayType(n, ptr, depth), true
	}
	return tsType{}, false
}

// typeKeyword renders `type`, a name or a list of names (a union).
func (c *converter) typeKeyword(n, t *node, ptr string, depth int) tsType {
	var names []*node
	switch t.kind {
	case kindString:
		names = []*node{t}
	case kindArray:
		names = t.items
	default:
		return c.fail(ptr+"/type", "type must be a string or an array of strings, found %s", compactJSON(t))
	}
	var alts []tsType
	for i, name := range names {
		at := ptr + "/type"
		if t.kind == kindArray {
			at += "/" + strconv.Itoa(i)
		}
		switch name.text {
		case "string":
			alts = append(alts, tsType{"string", precPrimary})
		case "number", "integer":
			alts = append(alts, tsType{"number", precPrimary})
		case "boolean":
			alts = append(alts, tsType{"boolean", precPrimary})
		case "null":
			alts = append(alts, tsType{"null", precPrimary})
		case "array":
			alts = append(alts, c.arrayType(n, ptr, depth))
		case "object":
			alts = append(alts, c.objectType(n, ptr, depth))
		default:
			return c.fail(at, "unknown type %s", compactJSON(name))
		}
	}
	return union(alts)
}

func (c *converter) branches(b *node, ptr string, depth int) []tsType {
	if b.kind != kindArray {
		return []tsType{c.fail(ptr, "must be an array of schemas")}
	}
	var out []tsType
	for i, s := range b.items {
		out = append(out, c.typeOf(s, ptr+"/"+strconv.Itoa(i), depth))
	}
	return out
}

// refType resolves a local reference: "#" is the side's root type, and
// "#/$defs/<name>" (or draft-7 "#/definitions/<name>") a named type.
func (c *converter) refType(ref *node, ptr string) tsType {
	if ref.kind != kindString {
		return c.fail(ptr, "$ref must be a string")
	}
	if ref.text == "#" {
		return tsType{c.rootName, precPrimary}
	}
	if name, ok := c.defNames[ref.text]; ok {
		return tsType{name, precPrimary}
	}
	return c.fail(ptr, "unsupported $ref %q: only \"#\" and \"#/$defs/<name>\" of this schema can be expressed", ref.text)
}

// arrayType renders arrays (items) and tuples (prefixItems). Tuple elements
// past minItems are optional; items after the prefix become a rest element.
func (c *converter) arrayType(n *node, ptr string, depth int) tsType {
	items := n.get("items")
	prefix := n.get("prefixItems")
	if prefix == nil {
		if items == nil {
			return tsType{"unknown[]", precPrimary}
		}
		if items.kind == kindBool && !items.boolean {
			return tsType{"[]", precPrimary}
		}
		return tsType{primary(c.typeOf(items, ptr+"/items", depth)) + "[]", precPrimary}
	}
	if prefix.kind != kindArray {
		return c.fail(ptr+"/prefixItems", "prefixItems must be an array of schemas")
	}
	minItems := 0
	if m := n.get("minItems"); m != nil && m.kind == kindNumber {
		minItems, _ = strconv.Atoi(m.text)
	}
	var elems []string
	for i, s := range prefix.items {
		t := c.typeOf(s, ptr+"/prefixItems/"+strconv.Itoa(i), depth)
		if i >= minItems {
			elems = append(elems, primary(t)+"?")
		} else {
			elems = append(elems, t.text)
		}
	}
	switch {
	case items == nil || (items.kind == kindBool && items.boolean):
		elems = append(elems, "...unknown[]")
	case items.kind == kindBool: // items: false closes the tuple
	default:
		elems = append(elems, "..."+primary(c.typeOf(items, ptr+"/items", depth))+"[]")
	}
	return tsType{"[" + strings.Join(elems, ", ") + "]", precPrimary}
}

// property is one object member ready to print.
type property struct {
	key      string
	optional bool
	doc      string
	typ      tsType
}

// objectType renders an object schema as an object literal type, or as a
// Record when it only has keys of one value type.
func (c *converter) objectType(n *node, ptr string, depth int) tsType {
	if p := n.get("properties"); p == nil || (p.kind == kindObject && len(p.members) == 0) {
		// A record's value type sits on the line the record starts on.
		return c.recordType(n, c.indexType(n, ptr, depth))
	}
	props, index := c.objectMembers(n, ptr, depth+1)
	return tsType{objectLiteral(props, index, depth), precPrimary}
}

// objectMembers returns the declared properties and the index signature's
// value type (nil for a closed object). Members are rendered at depth.
func (c *converter) objectMembers(n *node, ptr string, depth int) ([]property, *tsType) {
	required := map[string]bool{}
	if r := n.get("required"); r != nil && r.kind == kindArray {
		for _, k := range r.items {
			required[k.text] = true
		}
	}
	var props []property
	if p := n.get("properties"); p != nil {
		if p.kind != kindObject {
			c.fail(ptr+"/properties", "properties must be an object")
			return nil, nil
		}
		for _, m := range p.members {
			at := ptr + "/properties/" + escapePointer(m.key)
			props = append(props, property{
				key:      m.key,
				optional: !required[m.key],
				doc:      c.docText(m.value),
				typ:      c.typeOf(m.value, at, depth),
			})
		}
	}
	return props, c.indexType(n, ptr, depth)
}

// indexType is the value type of keys not listed in properties. A missing
// additionalProperties is treated as closed: zod omits it only for a plain
// z.object() on the input side, which strips unknown keys rather than
// keeping them, and whose inferred TypeScript type is closed too.
func (c *converter) indexType(n *node, ptr string, depth int) *tsType {
	var alts []tsType
	if ap := n.get("additionalProperties"); ap != nil && !(ap.kind == kindBool && !ap.boolean) {
		alts = append(alts, c.typeOf(ap, ptr+"/additionalProperties", depth))
	}
	if pp := n.get("patternProperties"); pp != nil && pp.kind == kindObject {
		for _, m := range pp.members {
			alts = append(alts, c.typeOf(m.value, ptr+"/patternProperties/"+escapePointer(m.key), depth))
		}
	}
	if len(alts) == 0 {
		return nil
	}
	t := union(alts)
	return &t
}

// recordType renders a property-less object: Record<string, V>, or a record
// over the literal keys its propertyNames allow (z.record with enum keys),
// whose keys are required exactly as `required` lists them.
func (c *converter) recordType(n *node, index *tsType) tsType {
	if index == nil {
		return tsType{c.closedEmpty(), precPrimary}
	}
	value := index.text
	keys := literalKeys(n.get("propertyNames"))
	if keys == nil {
		return tsType{"Record<string, " + value + ">", precPrimary}
	}
	required := map[string]bool{}
	if r := n.get("required"); r != nil && r.kind == kindArray {
		for _, k := range r.items {
			required[k.text] = true
		}
	}
	var must, may []string
	for _, k := range keys {
		if required[k] {
			must = append(must, quoteString(k))
		} else {
			may = append(may, quoteString(k))
		}
	}
	var parts []tsType
	if len(must) > 0 {
		parts = append(parts, tsType{"Record<" + strings.Join(must, " | ") + ", " + value + ">", precPrimary})
	}
	if len(may) > 0 {
		parts = append(parts, tsType{"Partial<Record<" + strings.Join(may, " | ") + ", " + value + ">>", precPrimary})
	}
	return intersection(parts)
}

// literalKeys returns the string keys a propertyNames schema enumerates, or
// nil when it allows any string.
func literalKeys(names *node) []string {
	if names == nil {
		return nil
	}
	if v := names.get("const"); v != nil && v.kind == kindString {
		return []string{v.text}
	}
	e := names.get("enum")
	if e == nil || e.kind != kindArray {
		return nil
	}
	var keys []string
	for _, v := range e.items {
		if v.kind != kindString {
			return nil
		}
		keys = append(keys, v.text)
	}
	return keys
}

// closedEmpty is the type of an object without fields that admits none. An
// input must reject extra keys, which only an index signature of never does
// (TypeScript skips excess-property checks against {}); an output reads
// better as {}, where reading a field that does not exist is an error rather
// than a value of type never.
func (c *converter) closedEmpty() string {
	if c.side == "input" {
		return "Record<string, never>"
	}
	return "{}"
}

// objectLiteral prints `{ ... }` with members at depth+1. An index signature
// must admit every declared property's type (TypeScript checks this), so the
// declared types join the index type, plus undefined for optional ones.
func objectLiteral(props []property, index *tsType, depth int) string {
	if len(props) == 0 && index == nil {
		return "Record<string, never>"
	}
	var b strings.Builder
	b.WriteString("{\n")
	writeMembers(&b, props, index, depth+1)
	b.WriteString(indent(depth) + "}")
	return b.String()
}

// writeMembers prints the member lines of an object literal or interface.
func writeMembers(b *strings.Builder, props []property, index *tsType, depth int) {
	pad := indent(depth)
	for _, p := range props {
		b.WriteString(docComment(p.doc, pad))
		opt := ""
		if p.optional {
			opt = "?"
		}
		fmt.Fprintf(b, "%s%s%s: %s;\n", pad, propertyKey(p.key), opt, p.typ.text)
	}
	if index != nil {
		fmt.Fprintf(b, "%s[key: string]: %s;\n", pad, indexSignatureType(props, *index).text)
	}
}

func indexSignatureType(props []property, index tsType) tsType {
	if index.text == "unknown" {
		return index
	}
	alts := []tsType{index}
	for _, p := range props {
		alts = append(alts, p.typ)
		if p.optional {
			alts = append(alts, tsType{"undefined", precPrimary})
		}
	}
	return union(alts)
}

// union joins alternatives, dropping duplicates and never; unknown absorbs all.
func union(alts []tsType) tsType {
	var kept []tsType
	for _, a := range alts {
		if a.text == "unknown" {
			return tsUnknown
		}
		if a.text == "never" || slices.ContainsFunc(kept, func(k tsType) bool { return k.text == a.text }) {
			continue
		}
		kept = append(kept, a)
	}
	switch len(kept) {
	case 0:
		return tsNever
	case 1:
		return kept[0]
	}
	texts := make([]string, len(kept))
	for i, k := range kept {
		texts[i] = k.text // & binds tighter than |, so members need no parentheses
	}
	return tsType{strings.Join(texts, " | "), precUnion}
}

// intersection joins parts that all apply; unknown parts add nothing.
func intersection(parts []tsType) tsType {
	var kept []tsType
	for _, p := range parts {
		if p.text == "never" {
			return tsNever
		}
		if p.text == "unknown" || slices.ContainsFunc(kept, func(k tsType) bool { return k.text == p.text }) {
			continue
		}
		kept = append(kept, p)
	}
	switch len(kept) {
	case 0:
		return tsUnknown
	case 1:
		return kept[0]
	}
	texts := make([]string, len(kept))
	for i, k := range kept {
		texts[i] = k.text
		if k.prec < precIntersection {
			texts[i] = "(" + k.text + ")"
		}
	}
	return tsType{strings.Join(texts, " & "), precIntersection}
}

// primary parenthesises t where a [] or ? suffix follows it.
func primary(t tsType) string {
	if t.prec < precPrimary {
		return "(" + t.text + ")"
	}
	return t.text
}

// literalType renders a JSON value as the TypeScript literal type that only
// it inhabits (objects and arrays structurally).
func literalType(v *node, depth int) tsType {
	switch v.kind {
	case kindNull:
		return tsType{"null", precPrimary}
	case kindBool:
		return tsType{strconv.FormatBool(v.boolean), precPrimary}
	case kindNumber, kindString:
		return tsType{compactJSON(v), precPrimary}
	case kindArray:
		var elems []string
		for _, it := range v.items {
			elems = append(elems, literalType(it, depth).text)
		}
		return tsType{"[" + strings.Join(elems, ", ") + "]", precPrimary}
	}
	var props []property
	for _, m := range v.members {
		props = append(props, property{key: m.key, typ: literalType(m.value, depth+1)})
	}
	if len(props) == 0 {
		return tsType{"Record<string, never>", precPrimary}
	}
	return tsType{objectLiteral(props, nil, depth), precPrimary}
}

func isEmptySchema(n *node) bool {
	return (n.kind == kindObject && len(n.members) == 0) || (n.kind == kindBool && n.boolean)
}

// propertyKey prints a key bare when it is a plain ASCII identifier and as a
// string literal otherwise.
func propertyKey(k string) string {
	if isIdentifier(k) {
		return k
	}
	return quoteString(k)
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func indent(depth int) string { return strings.Repeat("  ", depth) }

// escapePointer escapes one JSON Pointer reference token (RFC 6901).
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// unescapePointer reverses escapePointer.
func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
