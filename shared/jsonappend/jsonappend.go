// Package jsonappend appends JSON strings to a byte slice exactly as
// encoding/json encodes them with HTML escaping off (what clierr.PrintJSON
// prints). Listings of thousands of entries are written in one pass with
// it instead of through the reflecting encoder and a second, indenting
// pass; their writers test their output against the encoder's.
package jsonappend

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// String appends s as a JSON string: quotes, backslashes and control
// characters escaped (\b, \f, \n, \r and \t by name, the others as \u00XX),
// invalid UTF-8 as U+FFFD, and the line and paragraph separators U+2028
// and U+2029 escaped.
func String(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(append(b, s[start:i]...), escapeASCII(c)...)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// escapeASCII is the escape of an ASCII character a JSON string cannot
// hold as it is.
func escapeASCII(c byte) string {
	switch c {
	case '"':
		return `\"`
	case '\\':
		return `\\`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	return string([]byte{'\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF]})
}
