package wrappergen

import "strings"

// docText is the documentation of a property schema: its description (for a
// nullable field described before .nullable(), zod puts the description on
// the non-null anyOf branch, so that one is used), then its default value as
// an @default tag, since defaults are what make input fields optional. A bare
// $ref borrows the description of the schema it names.
func (c *converter) docText(s *node) string {
	text := c.description(s)
	if d := s.get("default"); d != nil {
		if text != "" {
			text += "\n\n"
		}
		text += "@default " + compactJSON(d)
	}
	return text
}

func (c *converter) description(s *node) string {
	return c.describe(s, map[*node]bool{})
}

// describe is description with the schemas already visited, so that a $ref
// cycle ends instead of recursing forever.
func (c *converter) describe(s *node, seen map[*node]bool) string {
	if s == nil || seen[s] {
		return ""
	}
	seen[s] = true
	if d := s.get("description"); d != nil && d.kind == kindString {
		return d.text
	}
	if ref := s.get("$ref"); ref != nil && ref.kind == kindString && ref.text != "#" {
		return c.describe(c.resolve(ref.text), seen)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		b := s.get(key)
		if b == nil || b.kind != kindArray {
			continue
		}
		var nonNull []*node
		for _, alt := range b.items {
			if t := alt.get("type"); t == nil || t.kind != kindString || t.text != "null" {
				nonNull = append(nonNull, alt)
			}
		}
		if len(nonNull) == 1 {
			return c.describe(nonNull[0], seen)
		}
	}
	return ""
}

// docComment renders text as a /** … */ block indented by pad, or nothing for
// empty text. "*/" inside the text would end the comment early, so it is
// written as "*\/", which documentation tools display unchanged.
func docComment(text, pad string) string {
	text = strings.TrimSpace(strings.Map(commentRune, strings.ReplaceAll(text, "\r\n", "\n")))
	if text == "" {
		return ""
	}
	text = strings.ReplaceAll(text, "*/", "*\\/")
	lines := strings.Split(text, "\n")
	if len(lines) == 1 {
		return pad + "/** " + lines[0] + " */\n"
	}
	var b strings.Builder
	b.WriteString(pad + "/**\n")
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			b.WriteString(pad + " *\n")
		} else {
			b.WriteString(pad + " * " + l + "\n")
		}
	}
	b.WriteString(pad + " */\n")
	return b.String()
}

// commentRune keeps a comment on the lines docComment lays out: other line
// breaks (\r, U+2028, U+2029) become newlines, and other control characters,
// which no editor shows, become spaces.
func commentRune(r rune) rune {
	switch {
	case r == '\r' || r == '\u2028' || r == '\u2029':
		return '\n'
	case r == '\n' || r == '\t':
		return r
	case r < 0x20 || r == 0x7f:
		return ' '
	}
	return r
}
