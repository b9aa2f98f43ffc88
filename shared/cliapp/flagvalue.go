package cliapp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// flagValueText returns the message for an error urfave/cli returns when a
// flag's parser refuses its value, in the user's terms:
//
//	--budget-tokens: "abc" is not a whole number
//
// and false for any other error. urfave/cli formats the parser's error into
// its own with %v (`invalid value "abc" for flag -budget-tokens:
// strconv.ParseInt: parsing "abc": invalid syntax`), so the
// *strconv.NumError itself is gone by the time the error reaches us: its
// text is rebuilt into one here, which keeps the message's choice on the
// error's kind (strconv.ErrRange or strconv.ErrSyntax) rather than on words.
func flagValueText(err error) (string, bool) {
	value, name, cause, ok := parseInvalidValue(err.Error())
	if !ok {
		return "", false
	}
	flag := "--" + name
	if len(name) == 1 {
		flag = "-" + name
	}
	return fmt.Sprintf("%s: %q %s", flag, value, refusal(cause)), true
}

// parseInvalidValue splits urfave/cli's `invalid value "<value>" for flag
// -<name>: <cause>`.
func parseInvalidValue(msg string) (value, name, cause string, ok bool) {
	rest, ok := strings.CutPrefix(msg, "invalid value ")
	if !ok {
		return "", "", "", false
	}
	quoted, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return "", "", "", false
	}
	if value, err = strconv.Unquote(quoted); err != nil {
		return "", "", "", false
	}
	rest, ok = strings.CutPrefix(rest[len(quoted):], " for flag -")
	if !ok {
		return "", "", "", false
	}
	name, cause, ok = strings.Cut(rest, ": ")
	return value, name, cause, ok
}

// refusal says why a value was refused, from its parser's error text.
func refusal(cause string) string {
	if ne, ok := numError(cause); ok {
		switch {
		case errors.Is(ne.Err, strconv.ErrRange):
			return "is out of range"
		case ne.Func == "ParseFloat":
			return "is not a number"
		case ne.Func == "ParseUint":
			return "is not a whole number of 0 or more"
		}
		return "is not a whole number"
	}
	switch {
	case cause == "parse error": // urfave/cli's own text for a bool flag
		return "is not true or false"
	case strings.HasPrefix(cause, "time: "): // time.ParseDuration's errors
		return "is not a duration such as 90s, 5m or 1h"
	}
	return "is not valid: " + cause
}

// numError rebuilds the *strconv.NumError whose Error() is text:
// `strconv.<Func>: parsing "<Num>": <Err>`.
func numError(text string) (*strconv.NumError, bool) {
	rest, ok := strings.CutPrefix(text, "strconv.")
	if !ok {
		return nil, false
	}
	fn, rest, ok := strings.Cut(rest, ": parsing ")
	if !ok {
		return nil, false
	}
	quoted, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return nil, false
	}
	num, err := strconv.Unquote(quoted)
	if err != nil {
		return nil, false
	}
	var kind error
	switch strings.TrimPrefix(rest[len(quoted):], ": ") {
	case strconv.ErrRange.Error():
		kind = strconv.ErrRange
	case strconv.ErrSyntax.Error():
		kind = strconv.ErrSyntax
	default:
		return nil, false
	}
	return &strconv.NumError{Func: fn, Num: num, Err: kind}, true
}
