package schemacheck

import (
	"encoding/json"
	"strconv"
	"strings"
)

// fieldSegment renders one field name of a path: .name for plain
// identifiers, ["odd key"] otherwise, so a path is never ambiguous.
func fieldSegment(name string) string {
	if isIdentifier(name) {
		return "." + name
	}
	b, _ := json.Marshal(name)
	return "[" + string(b) + "]"
}

// branchSegment renders the step into branch i of a union. A nullable
// field's union (one branch plus {"type":"null"}) adds nothing: the field is
// the same field whether or not it may be null.
func branchSegment(kw string, i int, branches []any) string {
	nonNull := 0
	for _, b := range branches {
		if !isNullSchema(b) {
			nonNull++
		}
	}
	if kw != "allOf" && nonNull == 1 && !isNullSchema(branches[i]) {
		return ""
	}
	return "<" + kw + " " + strconv.Itoa(i) + ">"
}

// pointerPath turns a JSON Pointer into the side's schema into the path a
// Violation shows, rendering each step as the walker does; a pointer into
// $defs starts from the path where the walker met that def.
func (w *walker) pointerPath(pointer string) string {
	if pointer == "" {
		return w.side
	}
	if !strings.HasPrefix(pointer, "/") {
		return w.side + "<" + pointer + ">" // not a JSON Pointer; show it as given
	}
	tokens := strings.Split(pointer[1:], "/")
	path, cur := w.side, any(w.root)
	if len(tokens) >= 2 && (tokens[0] == "$defs" || tokens[0] == "definitions") {
		if p, ok := w.defPaths["#/"+tokens[0]+"/"+tokens[1]]; ok {
			path, cur, tokens = p, child(child(w.root, tokens[0]), unescapeToken(tokens[1])), tokens[2:]
		}
	}
	for i := range tokens {
		tokens[i] = unescapeToken(tokens[i])
	}
	for len(tokens) > 0 {
		var step string
		step, cur, tokens = pathStep(cur, tokens)
		path += step
	}
	return path
}

// pathStep renders the first step of tokens in schema s and returns the
// schema it leads to and the tokens left.
func pathStep(s any, tokens []string) (string, any, []string) {
	tok, rest := tokens[0], tokens[1:]
	arg, hasArg := "", len(rest) > 0
	if hasArg {
		arg = rest[0]
	}
	switch tok {
	case "properties", "$defs", "definitions", "patternProperties":
		if !hasArg {
			return "<" + tok + ">", nil, rest
		}
		step := fieldSegment(arg)
		switch tok {
		case "$defs", "definitions":
			step = "." + tok + step
		case "patternProperties":
			step = "{}"
		}
		return step, child(child(s, tok), arg), rest[1:]
	case "items":
		return "[]", child(s, tok), rest
	case "additionalProperties":
		return "{}", child(s, tok), rest
	case "prefixItems", "anyOf", "oneOf", "allOf":
		list, _ := child(s, tok).([]any)
		n, err := strconv.Atoi(arg)
		if !hasArg || err != nil || n < 0 || n >= len(list) {
			return "<" + tok + " " + arg + ">", nil, rest[min(1, len(rest)):]
		}
		if tok == "prefixItems" {
			return "[" + arg + "]", list[n], rest[1:]
		}
		return branchSegment(tok, n, list), list[n], rest[1:]
	}
	return "<" + tok + ">", child(s, tok), rest
}

func child(s any, key string) any {
	m, _ := s.(map[string]any)
	return m[key]
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

// escapeToken and unescapeToken convert one JSON Pointer token (RFC 6901).
func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
