// Package toml decodes TOML 1.0 documents into plain Go values. It exists
// because the Models.dev source is TOML and the project's dependency list has
// no TOML library; it implements the whole of TOML 1.0 that a strict parser
// must accept or reject, not just the subset Models.dev uses today, so that a
// new upstream file cannot silently decode into the wrong value.
//
// Decoded types: string, int64, float64, bool, DateTime, []any and
// map[string]any.
package toml

import (
	"fmt"
	"unicode/utf8"
)

// DateTime is an offset date-time, local date-time, local date or local time,
// kept as its literal text: nothing in Stratos does arithmetic on dates.
type DateTime string

// ParseError locates a syntax or semantic error in a document.
type ParseError struct {
	Line, Column int // 1-based; Column counts bytes
	Msg          string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Parse decodes data. Every error is a *ParseError.
func Parse(data []byte) (map[string]any, error) {
	if !utf8.Valid(data) {
		return nil, &ParseError{Line: 1, Column: 1, Msg: "document is not valid UTF-8"}
	}
	p := &parser{src: data, line: 1}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		p.pos = 3
	}
	p.root = newTable(kindHeader)
	p.cur = p.root
	if err := p.document(); err != nil {
		return nil, err
	}
	return p.root.plain(), nil
}

type parser struct {
	src       []byte
	pos       int
	line      int
	lineStart int
	root      *table
	cur       *table
}

// errorf builds a ParseError at the current position.
func (p *parser) errorf(format string, args ...any) error {
	return &ParseError{Line: p.line, Column: p.pos - p.lineStart + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) peekAt(off int) byte {
	if p.pos+off >= len(p.src) {
		return 0
	}
	return p.src[p.pos+off]
}

func (p *parser) hasPrefix(s string) bool {
	return len(p.src)-p.pos >= len(s) && string(p.src[p.pos:p.pos+len(s)]) == s
}

// skipSpace skips spaces and tabs on the current line.
func (p *parser) skipSpace() {
	for !p.eof() && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// skipComment skips a comment up to (not including) the line end.
func (p *parser) skipComment() error {
	if p.peek() != '#' {
		return nil
	}
	for !p.eof() {
		c := p.src[p.pos]
		if c == '\n' || (c == '\r' && p.peekAt(1) == '\n') {
			return nil
		}
		if c < 0x20 && c != '\t' || c == 0x7f {
			return p.errorf("control character 0x%02x in comment", c)
		}
		p.pos++
	}
	return nil
}

// newline consumes one LF or CRLF and reports whether it did.
func (p *parser) newline() bool {
	switch {
	case p.peek() == '\n':
		p.pos++
	case p.peek() == '\r' && p.peekAt(1) == '\n':
		p.pos += 2
	default:
		return false
	}
	p.line++
	p.lineStart = p.pos
	return true
}

// endOfLine requires optional whitespace and comment, then a newline or EOF.
func (p *parser) endOfLine() error {
	p.skipSpace()
	if err := p.skipComment(); err != nil {
		return err
	}
	if p.eof() || p.newline() {
		return nil
	}
	return p.errorf("expected end of line, found %q", p.peek())
}

// skipBlank skips whitespace, comments and newlines (inside arrays).
func (p *parser) skipBlank() error {
	for {
		p.skipSpace()
		if err := p.skipComment(); err != nil {
			return err
		}
		if !p.newline() {
			return nil
		}
	}
}

func (p *parser) document() error {
	for {
		p.skipSpace()
		if err := p.skipComment(); err != nil {
			return err
		}
		if p.eof() {
			return nil
		}
		if p.newline() {
			continue
		}
		var err error
		if p.peek() == '[' {
			err = p.header()
		} else {
			err = p.keyValue(p.cur)
		}
		if err != nil {
			return err
		}
		if err := p.endOfLine(); err != nil {
			return err
		}
	}
}

// header parses [a.b] or [[a.b]] and makes it the current table.
func (p *parser) header() error {
	line, col := p.line, p.pos-p.lineStart+1
	arrayOfTables := p.hasPrefix("[[")
	if arrayOfTables {
		p.pos += 2
	} else {
		p.pos++
	}
	p.skipSpace()
	key, err := p.key()
	if err != nil {
		return err
	}
	p.skipSpace()
	closing := "]"
	if arrayOfTables {
		closing = "]]"
	}
	if !p.hasPrefix(closing) {
		return p.errorf("expected %q to close the table header", closing)
	}
	p.pos += len(closing)
	t, msg := p.root.openHeader(key, arrayOfTables)
	if msg != "" {
		return &ParseError{Line: line, Column: col, Msg: msg}
	}
	p.cur = t
	return nil
}

// keyValue parses key = value into t.
func (p *parser) keyValue(t *table) error {
	line, col := p.line, p.pos-p.lineStart+1
	key, err := p.key()
	if err != nil {
		return err
	}
	p.skipSpace()
	if p.peek() != '=' {
		return p.errorf("expected '=' after key %s", joinKey(key))
	}
	p.pos++
	p.skipSpace()
	v, err := p.value()
	if err != nil {
		return err
	}
	if msg := t.setDotted(key, v); msg != "" {
		return &ParseError{Line: line, Column: col, Msg: msg}
	}
	return nil
}

// key parses a possibly dotted key.
func (p *parser) key() ([]string, error) {
	var parts []string
	for {
		part, err := p.simpleKey()
		if err != nil {
			return nil, err
		}
		parts = append(parts, part)
		p.skipSpace()
		if p.peek() != '.' {
			return parts, nil
		}
		p.pos++
		p.skipSpace()
	}
}

func (p *parser) simpleKey() (string, error) {
	switch c := p.peek(); {
	case c == '"':
		if p.hasPrefix(`"""`) {
			return "", p.errorf("multi-line strings cannot be keys")
		}
		return p.basicString()
	case c == '\'':
		if p.hasPrefix("'''") {
			return "", p.errorf("multi-line strings cannot be keys")
		}
		return p.literalString()
	case isBareKeyChar(c):
		start := p.pos
		for !p.eof() && isBareKeyChar(p.src[p.pos]) {
			p.pos++
		}
		return string(p.src[start:p.pos]), nil
	case p.eof():
		return "", p.errorf("expected a key, found end of document")
	default:
		return "", p.errorf("expected a key, found %q", c)
	}
}

func isBareKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// value parses any value at the current position.
func (p *parser) value() (any, error) {
	switch c := p.peek(); {
	case p.eof():
		return nil, p.errorf("expected a value, found end of document")
	case c == '"':
		if p.hasPrefix(`"""`) {
			return p.multilineBasicString()
		}
		return p.basicString()
	case c == '\'':
		if p.hasPrefix("'''") {
			return p.multilineLiteralString()
		}
		return p.literalString()
	case c == '[':
		return p.array()
	case c == '{':
		return p.inlineTable()
	default:
		return p.scalar()
	}
}

// array parses [v, v, ...]; newlines, comments and a trailing comma are allowed.
func (p *parser) array() (any, error) {
	p.pos++ // [
	arr := &array{}
	for {
		if err := p.skipBlank(); err != nil {
			return nil, err
		}
		if p.peek() == ']' {
			p.pos++
			return arr, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		arr.items = append(arr.items, v)
		if err := p.skipBlank(); err != nil {
			return nil, err
		}
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return arr, nil
		default:
			return nil, p.errorf("expected ',' or ']' in array")
		}
	}
}

// inlineTable parses { k = v, ... } on one line, without a trailing comma.
func (p *parser) inlineTable() (any, error) {
	p.pos++ // {
	t := newTable(kindDotted)
	p.skipSpace()
	if p.peek() == '}' {
		p.pos++
		t.freeze()
		return t, nil
	}
	for {
		p.skipSpace()
		if err := p.keyValue(t); err != nil {
			return nil, err
		}
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.pos++
			p.skipSpace()
			if p.peek() == '}' {
				return nil, p.errorf("trailing comma in inline table")
			}
		case '}':
			p.pos++
			t.freeze()
			return t, nil
		default:
			return nil, p.errorf("expected ',' or '}' in inline table")
		}
	}
}
