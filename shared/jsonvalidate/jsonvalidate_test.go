package jsonvalidate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// schema is shaped like what Zod emits for a strict object.
const schema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "title": {"type": "string"},
    "count": {"type": "number"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "owner": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"], "additionalProperties": false}
  },
  "required": ["title", "count", "tags", "owner"],
  "additionalProperties": false
}`

func compile(t *testing.T) *Schema {
	t.Helper()
	s, err := Compile(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestValidateReportsEveryFieldSortedByPath(t *testing.T) {
	got := compile(t).Validate(json.RawMessage(`{"title": 1, "tags": ["a", 2, "c", "d", "e", "f", "g", "h", "i", "j", 11], "owner": {"extra": true}, "zzz": 0}`))
	want := []Issue{
		{Path: "count", Message: "required field is missing"},
		{Path: "owner.extra", Message: "unknown field (not in the schema)"},
		{Path: "owner.name", Message: "required field is missing"},
		{Path: "tags.1", Message: "got number, want string"},
		{Path: "tags.10", Message: "got number, want string"},
		{Path: "title", Message: "got number, want string"},
		{Path: "zzz", Message: "unknown field (not in the schema)"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("issues:\n got %+v\nwant %+v", got, want)
	}
}

// TestValidateIsStable: the same mismatch gives the same issues every time
// (map iteration order must not leak into the report).
func TestValidateIsStable(t *testing.T) {
	s := compile(t)
	value := json.RawMessage(`{"title": 1, "count": "x", "tags": [1, 2], "owner": {}}`)
	first := s.Validate(value)
	for range 50 {
		if got := s.Validate(value); !reflect.DeepEqual(got, first) {
			t.Fatalf("issues changed between runs:\n%+v\n%+v", first, got)
		}
	}
}

func TestValidateMatch(t *testing.T) {
	if got := compile(t).Validate(json.RawMessage(`{"title": "t", "count": 1, "tags": [], "owner": {"name": "n"}}`)); got != nil {
		t.Errorf("issues = %+v, want none", got)
	}
}

func TestValidateNotJSON(t *testing.T) {
	got := compile(t).Validate(json.RawMessage(`{`))
	if len(got) != 1 || got[0].Path != "" {
		t.Errorf("issues = %+v, want one at the root", got)
	}
}

func TestText(t *testing.T) {
	for _, c := range []struct {
		name   string
		issues []Issue
		want   string
	}{
		{"root", []Issue{{Path: "", Message: "bad"}}, "bad"},
		{"fields", []Issue{{Path: "a", Message: "x"}, {Path: "b.c", Message: "y"}}, `field "a": x; field "b.c": y`},
		{"more than five", []Issue{{Path: "a", Message: "m"}, {Path: "b", Message: "m"}, {Path: "c", Message: "m"}, {Path: "d", Message: "m"}, {Path: "e", Message: "m"}, {Path: "f", Message: "m"}, {Path: "g", Message: "m"}},
			`field "a": m; field "b": m; field "c": m; field "d": m; field "e": m; and 2 more`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Text(c.issues); got != c.want {
				t.Errorf("Text = %q, want %q", got, c.want)
			}
		})
	}
}

// TestCompileChecksTheMetaSchema: a schema that breaks its draft's
// meta-schema is refused, whichever draft it names, also when it is a
// resource embedded in a schema of another draft.
func TestCompileChecksTheMetaSchema(t *testing.T) {
	drafts := []string{"https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"}
	embed := func(typ string) string {
		return `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/old",
		  "$defs": {"old": {"$id": "http://example.com/old.json", "$schema": "http://json-schema.org/draft-07/schema#", "type": ` + typ + `}}}`
	}
	for typ, valid := range map[string]bool{`5`: false, `"string"`: true} {
		docs := []string{embed(typ)}
		for _, d := range drafts {
			docs = append(docs, `{"$schema": "`+d+`", "type": `+typ+`}`)
		}
		for _, doc := range docs {
			if _, err := Compile(json.RawMessage(doc)); (err == nil) != valid {
				t.Errorf("Compile(%s) = %v, want valid: %v", doc, err, valid)
			}
		}
	}
}

// TestCompileReadsNoOtherDocument: a $ref or $schema naming a file is
// refused without reading it (the library's own loader would read any
// file:// URL), even when the file holds a valid schema.
func TestCompileReadsNoOtherDocument(t *testing.T) {
	file := filepath.Join(t.TempDir(), "other.json")
	if err := os.WriteFile(file, []byte(`{"type": "string", "$defs": {"name": {"type": "string"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + filepath.ToSlash(file)
	for _, doc := range []string{
		`{"$ref": "` + url + `"}`,
		`{"$schema": "` + url + `", "type": "string"}`,
		`{"type": "object", "properties": {"a": {"$ref": "` + url + `#/$defs/name"}}}`,
	} {
		_, err := Compile(json.RawMessage(doc))
		if err == nil || !strings.Contains(err.Error(), "may refer only to itself") {
			t.Errorf("Compile(%s) = %v, want a refusal to load %s", doc, err, url)
		}
	}
}

// TestCompileNamesTheSchemaFieldsAtFault: a schema that breaks its draft's
// meta-schema is refused with every field at fault, on one line.
func TestCompileNamesTheSchemaFieldsAtFault(t *testing.T) {
	_, err := Compile(json.RawMessage(`{"type": "object", "properties": {"a": {"type": "strin"}, "b": {"minimum": "x"}}}`))
	want := `the schema is not a valid JSON Schema: field "properties.a.type": got string, want array; ` +
		`field "properties.a.type": value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; ` +
		`field "properties.b.minimum": got string, want number`
	if err == nil || err.Error() != want {
		t.Errorf("Compile = %v\nwant %s", err, want)
	}
}
