package toml

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// basicString parses "..." with escapes.
func (p *parser) basicString() (string, error) {
	p.pos++ // "
	var b strings.Builder
	for {
		if p.eof() {
			return "", p.errorf("unterminated string")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c == '\n' || c == '\r':
			return "", p.errorf("newline in single-line string")
		case isControl(c):
			return "", p.errorf("control character 0x%02x in string", c)
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// multilineBasicString parses """...""".
func (p *parser) multilineBasicString() (string, error) {
	p.pos += 3
	p.newline() // a newline right after the opening delimiter is trimmed
	var b strings.Builder
	for {
		if p.eof() {
			return "", p.errorf("unterminated multi-line string")
		}
		c := p.src[p.pos]
		switch {
		case c == '"' && p.hasPrefix(`"""`):
			if done, err := p.closeMultiline(&b, '"'); done || err != nil {
				return b.String(), err
			}
		case c == '\\':
			if p.lineEndingBackslash() {
				continue
			}
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case p.newline():
			b.WriteByte('\n')
		case isControl(c):
			return "", p.errorf("control character 0x%02x in string", c)
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// closeMultiline handles a run of three or more quote characters: up to two
// of them belong to the content, the last three close the string.
func (p *parser) closeMultiline(b *strings.Builder, q byte) (bool, error) {
	n := 0
	for p.peekAt(n) == q {
		n++
	}
	if n > 5 {
		return false, p.errorf("too many quotes in a row in multi-line string")
	}
	for i := 0; i < n-3; i++ {
		b.WriteByte(q)
	}
	p.pos += n
	return true, nil
}

// lineEndingBackslash consumes a backslash that ends a line, together with
// all following whitespace and newlines, and reports whether it did.
func (p *parser) lineEndingBackslash() bool {
	i := p.pos + 1
	for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t') {
		i++
	}
	if i < len(p.src) && (p.src[i] == '\n' || p.src[i] == '\r' && i+1 < len(p.src) && p.src[i+1] == '\n') {
		p.pos = i
		for {
			p.skipSpace()
			if !p.newline() {
				return true
			}
		}
	}
	return false
}

func (p *parser) escape(b *strings.Builder) error {
	p.pos++ // backslash
	if p.eof() {
		return p.errorf("unterminated escape sequence")
	}
	c := p.src[p.pos]
	p.pos++
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 't':
		b.WriteByte('\t')
	case 'n':
		b.WriteByte('\n')
	case 'f':
		b.WriteByte('\f')
	case 'r':
		b.WriteByte('\r')
	case '"':
		b.WriteByte('"')
	case '\\':
		b.WriteByte('\\')
	case 'u':
		return p.unicodeEscape(b, 4)
	case 'U':
		return p.unicodeEscape(b, 8)
	default:
		p.pos--
		return p.errorf("invalid escape sequence \\%c", c)
	}
	return nil
}

func (p *parser) unicodeEscape(b *strings.Builder, digits int) error {
	if p.pos+digits > len(p.src) {
		return p.errorf("short unicode escape")
	}
	n, err := strconv.ParseUint(string(p.src[p.pos:p.pos+digits]), 16, 32)
	if err != nil {
		return p.errorf("invalid unicode escape %q", p.src[p.pos:p.pos+digits])
	}
	r := rune(n)
	if !utf8.ValidRune(r) {
		return p.errorf("unicode escape %q is not a scalar value", p.src[p.pos:p.pos+digits])
	}
	b.WriteRune(r)
	p.pos += digits
	return nil
}

// literalString parses '...' (no escapes).
func (p *parser) literalString() (string, error) {
	p.pos++
	start := p.pos
	for {
		if p.eof() {
			return "", p.errorf("unterminated literal string")
		}
		c := p.src[p.pos]
		switch {
		case c == '\'':
			s := string(p.src[start:p.pos])
			p.pos++
			return s, nil
		case c == '\n' || c == '\r':
			return "", p.errorf("newline in single-line string")
		case isControl(c):
			return "", p.errorf("control character 0x%02x in string", c)
		}
		p.pos++
	}
}

// multilineLiteralString parses ”'...”'.
func (p *parser) multilineLiteralString() (string, error) {
	p.pos += 3
	p.newline()
	var b strings.Builder
	for {
		if p.eof() {
			return "", p.errorf("unterminated multi-line literal string")
		}
		c := p.src[p.pos]
		switch {
		case c == '\'' && p.hasPrefix("'''"):
			if done, err := p.closeMultiline(&b, '\''); done || err != nil {
				return b.String(), err
			}
		case p.newline():
			b.WriteByte('\n')
		case isControl(c):
			return "", p.errorf("control character 0x%02x in string", c)
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// isControl reports control characters that strings may not contain raw
// (tab is allowed).
func isControl(c byte) bool { return c < 0x20 && c != '\t' || c == 0x7f }
