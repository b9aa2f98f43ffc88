package wrappergen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// node is a decoded JSON value that keeps object members in document order.
// encoding/json's maps lose that order, and the generated types must list
// properties in the order the author declared them (zod preserves it).
type node struct {
	kind    nodeKind
	members []member // kindObject, in document order
	items   []*node  // kindArray
	text    string   // kindString: the value; kindNumber: the literal as written
	boolean bool     // kindBool
}

type nodeKind int

const (
	kindNull nodeKind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

type member struct {
	key   string
	value *node
}

// get returns the member value for key, or nil when the key is absent.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kindObject {
		return nil
	}
	for _, m := range n.members {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// has reports whether an object node has the key, whatever its value.
func (n *node) has(key string) bool { return n.get(key) != nil }

// parseNode decodes one JSON document.
func parseNode(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return n, nil
}

func decodeValue(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("unexpected end of JSON")
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return decodeObject(dec)
		}
		return decodeArray(dec)
	case string:
		return &node{kind: kindString, text: t}, nil
	case json.Number:
		return &node{kind: kindNumber, text: t.String()}, nil
	case bool:
		return &node{kind: kindBool, boolean: t}, nil
	case nil:
		return &node{kind: kindNull}, nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

// decodeObject decodes an object's members. A key given twice is refused:
// JSON leaves its meaning open (JavaScript keeps the last value, get would
// find the first), and a property given twice is no TypeScript type.
func decodeObject(dec *json.Decoder) (*node, error) {
	n := &node{kind: kindObject}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if seen[key] {
			return nil, fmt.Errorf("the key %q appears twice in one object", key)
		}
		seen[key] = true
		value, err := decodeValue(dec)
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{key: key, value: value})
	}
	_, err := dec.Token() // the closing '}'
	return n, err
}

func decodeArray(dec *json.Decoder) (*node, error) {
	n := &node{kind: kindArray}
	for dec.More() {
		value, err := decodeValue(dec)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, value)
	}
	_, err := dec.Token() // the closing ']'
	return n, err
}

// compactJSON renders a node back to compact JSON (for @default tags and
// error messages); members keep their order.
func compactJSON(n *node) string {
	var b bytes.Buffer
	writeJSON(&b, n)
	return b.String()
}

func writeJSON(b *bytes.Buffer, n *node) {
	switch n.kind {
	case kindNull:
		b.WriteString("null")
	case kindBool:
		fmt.Fprint(b, n.boolean)
	case kindNumber:
		b.WriteString(n.text)
	case kindString:
		b.WriteString(quoteString(n.text))
	case kindArray:
		b.WriteByte('[')
		for i, it := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, it)
		}
		b.WriteByte(']')
	case kindObject:
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(quoteString(m.key))
			b.WriteByte(':')
			writeJSON(b, m.value)
		}
		b.WriteByte('}')
	}
}

// quoteString renders s as a JSON string, which is also a valid TypeScript
// string literal (HTML characters are left alone for readability).
func quoteString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
