// Package verdict is what a JSON Schema validation found, and the requests
// and replies of the validator process (stratos-run-validate) that carry
// it. It does not import the validating library, so that a tool can read a
// verdict without paying for the library's package initialization (it
// compiles the meta-schemas of every draft it knows; docs/performance.md).
package verdict

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Issue is one failing field.
type Issue struct {
	// Path is the field's dotted path ("items.2.name"); "" is the value itself.
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Text is the issues for people: `field "a.b": message; …`, at most the first
// five, then how many more.
func Text(issues []Issue) string {
	const shown = 5
	parts := make([]string, 0, min(len(issues), shown)+1)
	for i, is := range issues {
		if i == shown {
			parts = append(parts, fmt.Sprintf("and %d more", len(issues)-shown))
			break
		}
		if is.Path == "" {
			parts = append(parts, is.Message)
		} else {
			parts = append(parts, fmt.Sprintf("field %q: %s", is.Path, is.Message))
		}
	}
	return strings.Join(parts, "; ")
}

// Request asks the validator process to compile Schema and, when Value is
// set, to validate Value against it. A request without a value only
// compiles, so that the schema is ready when the value arrives.
type Request struct {
	Schema json.RawMessage `json:"schema"`
	Value  json.RawMessage `json:"value,omitempty"`
}

// Reply answers one request, in the order the requests came.
type Reply struct {
	// SchemaError is why the schema does not compile; "" when it does.
	SchemaError string `json:"schemaError,omitempty"`
	// Issues are the value's failing fields, sorted; none when it matches
	// (or when the request had no value).
	Issues []Issue `json:"issues,omitempty"`
}
