package jsonvalidate

import (
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"sync"
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
		{"more than five", []Issue{{"a", "m"}, {"b", "m"}, {"c", "m"}, {"d", "m"}, {"e", "m"}, {"f", "m"}, {"g", "m"}},
			`field "a": m; field "b": m; field "c": m; field "d": m; field "e": m; and 2 more`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Text(c.issues); got != c.want {
				t.Errorf("Text = %q, want %q", got, c.want)
			}
		})
	}
}

// TestCompileChecksTheMetaSchema: the drafts' meta-schemas are compiled on
// first use (internal/jsonschema, patched), not at start; a schema that
// breaks its draft's meta-schema is still refused, whichever draft it names,
// from however many goroutines at once, and whether or not Warm ran first.
func TestCompileChecksTheMetaSchema(t *testing.T) {
	drafts := []string{"https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"}
	var wg sync.WaitGroup
	wg.Go(Warm) // ahead of time, or racing the compilations: the same results
	for _, d := range drafts {
		for typ, valid := range map[string]bool{`5`: false, `"string"`: true} {
			doc := `{"$schema": "` + d + `", "type": ` + typ + `}`
			wg.Go(func() {
				if _, err := Compile(json.RawMessage(doc)); (err == nil) != valid {
					t.Errorf("Compile(%s) = %v, want valid: %v", doc, err, valid)
				}
			})
		}
	}
	wg.Wait()
}

// TestCompileChecksAnEmbeddedDraft: a draft 2020-12 schema may embed a
// resource whose $schema names another draft; that draft's meta-schema is
// compiled when the schema is, so a breach inside the embedded resource is
// still refused. It runs in a process of its own, where no other test has
// compiled draft-07's meta-schema already.
func TestCompileChecksAnEmbeddedDraft(t *testing.T) {
	if os.Getenv("JSONVALIDATE_EMBEDDED_DRAFT") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCompileChecksAnEmbeddedDraft$", "-test.count=1")
		cmd.Env = append(os.Environ(), "JSONVALIDATE_EMBEDDED_DRAFT=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("in a fresh process: %v\n%s", err, out)
		}
		return
	}
	Warm() // draft 2020-12 only
	embed := func(typ string) string {
		return `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/old",
		  "$defs": {"old": {"$id": "http://example.com/old.json", "$schema": "http://json-schema.org/draft-07/schema#", "type": ` + typ + `}}}`
	}
	if _, err := Compile(json.RawMessage(embed(`5`))); err == nil {
		t.Errorf("Compile accepted a draft-07 resource whose type is 5")
	}
	if _, err := Compile(json.RawMessage(embed(`"string"`))); err != nil {
		t.Errorf("Compile of a valid embedded draft-07 resource: %v", err)
	}
}
