package yamlline

import (
	"errors"
	"testing"

	"gopkg.in/yaml.v3"
)

// Each document has its fault on the line the want names (counted from 1).
func TestCorrectNamesTheLineAtFault(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"block mapping", "a: 1\nb: 2\n- c\nd: 4\n", "yaml: line 3: did not find expected key"},
		{"block sequence", "a: 1\nb:\n  - x\n  y: 2\n", "yaml: line 3: did not find expected '-' indicator"},
		{"flow sequence", "a: 1\nb: 2\nc: [1, 2\nd: 4\n", "yaml: line 3: did not find expected ',' or ']'"},
		{"second line", "- a\nb: 1\n", "yaml: line 2: did not find expected '-' indicator"},
		{"unclosed at the end", "a: {b: 1\n", "yaml: line 2: did not find expected ',' or '}'"},
		// yaml.v3 names no line for a parser error on line 1.
		{"first line", "]\n", "yaml: line 1: did not find expected node content"},
		// Scanner errors count from 1 already.
		{"scanner", "a: 1\nb: 2\nc: @x\nd: 4\n", "yaml: line 3: found character that cannot start any token"},
		{"tab", "a: 1\n\tb: 2\n", "yaml: line 2: found a tab character that violates indentation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n yaml.Node
			err := Correct(yaml.Unmarshal([]byte(tc.doc), &n))
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Correct(Unmarshal(%q)) = %v, want %s", tc.doc, err, tc.want)
			}
		})
	}
}

func TestCorrectLeavesOtherErrors(t *testing.T) {
	if Correct(nil) != nil {
		t.Fatal("Correct(nil) is not nil")
	}
	var v struct{ A int }
	err := yaml.Unmarshal([]byte("a: x\n"), &v)
	if got := Correct(err); got != err {
		t.Fatalf("a type error changed: %v", got)
	}
	other := errors.New("did not find expected key")
	if got := Correct(other); got != other {
		t.Fatalf("a non-yaml error changed: %v", got)
	}
}
