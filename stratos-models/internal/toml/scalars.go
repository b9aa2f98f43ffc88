package toml

import (
	"math"
	"strconv"
	"strings"
)

// scalar parses a boolean, number or date-time.
func (p *parser) scalar() (any, error) {
	start := p.pos
	for !p.eof() && isScalarChar(p.src[p.pos]) {
		p.pos++
	}
	tok := string(p.src[start:p.pos])
	// A date and a time may be separated by one space.
	if isLocalDate(tok) && p.peek() == ' ' && isDigit(p.peekAt(1)) && isDigit(p.peekAt(2)) && p.peekAt(3) == ':' {
		p.pos++
		for !p.eof() && isScalarChar(p.src[p.pos]) {
			p.pos++
		}
		tok = string(p.src[start:p.pos])
	}
	if tok == "" {
		return nil, p.errorf("expected a value, found %q", p.peek())
	}
	v, ok := decodeScalar(tok)
	if !ok {
		p.pos = start
		return nil, p.errorf("invalid value %q", tok)
	}
	return v, nil
}

func isScalarChar(c byte) bool {
	return isBareKeyChar(c) || c == '+' || c == '.' || c == ':'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func decodeScalar(tok string) (any, bool) {
	switch tok {
	case "true":
		return true, true
	case "false":
		return false, true
	case "inf", "+inf":
		return math.Inf(1), true
	case "-inf":
		return math.Inf(-1), true
	case "nan", "+nan", "-nan":
		return math.NaN(), true
	}
	if isDateTime(tok) {
		return DateTime(tok), true
	}
	if len(tok) > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'o' || tok[1] == 'b') {
		return decodePrefixedInt(tok)
	}
	if strings.ContainsAny(tok, ".eE") {
		return decodeFloat(tok)
	}
	return decodeDecimalInt(tok)
}

// digitsWithUnderscores checks that s is digits (per isDig) where each
// underscore sits between two digits, and returns s without underscores.
func digitsWithUnderscores(s string, isDig func(byte) bool) (string, bool) {
	if s == "" {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			if i == 0 || i == len(s)-1 || !isDig(s[i-1]) || !isDig(s[i+1]) {
				return "", false
			}
			continue
		}
		if !isDig(c) {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

func decodePrefixedInt(tok string) (any, bool) {
	base, isDig := 16, func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
	switch tok[1] {
	case 'o':
		base, isDig = 8, func(c byte) bool { return c >= '0' && c <= '7' }
	case 'b':
		base, isDig = 2, func(c byte) bool { return c == '0' || c == '1' }
	}
	digits, ok := digitsWithUnderscores(tok[2:], isDig)
	if !ok {
		return nil, false
	}
	n, err := strconv.ParseUint(digits, base, 64)
	if err != nil || n > math.MaxInt64 {
		return nil, false
	}
	return int64(n), true
}

func splitSign(tok string) (sign, rest string) {
	if tok != "" && (tok[0] == '+' || tok[0] == '-') {
		return tok[:1], tok[1:]
	}
	return "", tok
}

func decodeDecimalInt(tok string) (any, bool) {
	sign, rest := splitSign(tok)
	digits, ok := digitsWithUnderscores(rest, isDigit)
	if !ok || len(digits) > 1 && digits[0] == '0' {
		return nil, false
	}
	n, err := strconv.ParseInt(sign+digits, 10, 64)
	if err != nil {
		return nil, false
	}
	return n, true
}

// decodeFloat accepts int-part, optional fraction, optional exponent.
func decodeFloat(tok string) (any, bool) {
	sign, rest := splitSign(tok)
	mantissa, exp := rest, ""
	if i := strings.IndexAny(rest, "eE"); i >= 0 {
		mantissa, exp = rest[:i], rest[i+1:]
	}
	intPart, frac, hasFrac := strings.Cut(mantissa, ".")
	intDigits, ok := digitsWithUnderscores(intPart, isDigit)
	if !ok || len(intDigits) > 1 && intDigits[0] == '0' {
		return nil, false
	}
	clean := sign + intDigits
	if hasFrac {
		fracDigits, ok := digitsWithUnderscores(frac, isDigit)
		if !ok {
			return nil, false
		}
		clean += "." + fracDigits
	}
	if exp != "" || strings.ContainsAny(rest, "eE") {
		expSign, expRest := splitSign(exp)
		expDigits, ok := digitsWithUnderscores(expRest, isDigit)
		if !ok {
			return nil, false
		}
		clean += "e" + expSign + expDigits
	}
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil {
		return nil, false
	}
	return f, true
}

// isLocalDate reports YYYY-MM-DD with a plausible month and day.
func isLocalDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9} {
		if !isDigit(s[i]) {
			return false
		}
	}
	month, _ := strconv.Atoi(s[5:7])
	day, _ := strconv.Atoi(s[8:10])
	return month >= 1 && month <= 12 && day >= 1 && day <= 31
}

// isLocalTime reports HH:MM:SS with optional fraction.
func isLocalTime(s string) bool {
	if len(s) < 8 || s[2] != ':' || s[5] != ':' {
		return false
	}
	for _, i := range []int{0, 1, 3, 4, 6, 7} {
		if !isDigit(s[i]) {
			return false
		}
	}
	h, _ := strconv.Atoi(s[0:2])
	m, _ := strconv.Atoi(s[3:5])
	sec, _ := strconv.Atoi(s[6:8])
	if h > 23 || m > 59 || sec > 60 {
		return false
	}
	frac := s[8:]
	if frac == "" {
		return true
	}
	if frac[0] != '.' || len(frac) == 1 {
		return false
	}
	for i := 1; i < len(frac); i++ {
		if !isDigit(frac[i]) {
			return false
		}
	}
	return true
}

// isOffset reports Z or ±HH:MM.
func isOffset(s string) bool {
	if s == "Z" || s == "z" {
		return true
	}
	return len(s) == 6 && (s[0] == '+' || s[0] == '-') && isDigit(s[1]) && isDigit(s[2]) && s[3] == ':' && isDigit(s[4]) && isDigit(s[5])
}

func isDateTime(s string) bool {
	if isLocalTime(s) {
		return true
	}
	if len(s) < 10 || !isLocalDate(s[:10]) {
		return false
	}
	if len(s) == 10 {
		return true
	}
	if sep := s[10]; sep != 'T' && sep != 't' && sep != ' ' {
		return false
	}
	rest := s[11:]
	// The time part is at least HH:MM:SS; an offset, if any, follows it.
	end := 8
	if end > len(rest) {
		return false
	}
	for end < len(rest) && (rest[end] == '.' || isDigit(rest[end])) {
		end++
	}
	return isLocalTime(rest[:end]) && (end == len(rest) || isOffset(rest[end:]))
}
