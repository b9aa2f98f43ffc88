package jsonvalidate

import (
	"encoding/json"
	"reflect"
	"testing"
)

// unionSchema is what zod 4.6.7 emits for an output
// z.discriminatedUnion("status", [done, failed/skipped]) whose "done" branch
// is shared through $defs (.meta({ id })), nested in a field of an object.
const unionSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "result": {"oneOf": [
      {"$ref": "#/$defs/Done"},
      {"type": "object", "properties": {"status": {"type": "string", "enum": ["failed", "skipped"]}, "reason": {"type": "string"}},
       "required": ["status", "reason"], "additionalProperties": false}
    ]},
    "plain": {"anyOf": [
      {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false},
      {"type": "object", "properties": {"b": {"type": "number"}}, "required": ["b"], "additionalProperties": false}
    ]}
  },
  "required": ["result"],
  "additionalProperties": false,
  "$defs": {"Done": {"type": "object",
    "properties": {"status": {"type": "string", "const": "done"}, "files": {"type": "array", "items": {"type": "object",
      "properties": {"path": {"type": "string"}, "lines": {"type": "integer"}}, "required": ["path", "lines"], "additionalProperties": false}}},
    "required": ["status", "files"], "additionalProperties": false}}
}`

// TestDiscriminatedUnionReportsTheSelectedBranch: a value of a discriminated
// union is told what is wrong in the branch its discriminator selects, not
// what every other branch would have wanted; a discriminator that selects
// none, or is missing, is the one issue. A union without a discriminator
// still reports every branch.
func TestDiscriminatedUnionReportsTheSelectedBranch(t *testing.T) {
	s, err := Compile(json.RawMessage(unionSchema))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, value string
		want        []Issue
	}{
		{"valid branches", `{"result": {"status": "done", "files": []}}`, nil},
		{"valid enum branch", `{"result": {"status": "skipped", "reason": "none"}}`, nil},
		{"the selected branch's fields, through a $ref", `{"result": {"status": "done", "files": [{"path": 1}]}}`, []Issue{
			{Path: "result.files.0.lines", Message: "required field is missing"},
			{Path: "result.files.0.path", Message: "got number, want string"},
		}},
		{"the enum branch", `{"result": {"status": "failed", "files": []}}`, []Issue{
			{Path: "result.files", Message: "unknown field (not in the schema)"},
			{Path: "result.reason", Message: "required field is missing"},
		}},
		{"no branch selected", `{"result": {"status": "finished", "files": []}}`, []Issue{
			{Path: "result.status", Message: "value must be one of 'done', 'failed', 'skipped'"},
		}},
		{"discriminator missing", `{"result": {"files": []}}`, []Issue{
			{Path: "result.status", Message: "required field is missing (it selects the union's branch: value must be one of 'done', 'failed', 'skipped')"},
		}},
		{"not an object at all", `{"result": "done"}`, []Issue{
			{Path: "result", Message: "got string, want object"},
		}},
		{"no discriminator: every branch", `{"result": {"status": "done", "files": []}, "plain": {"c": true}}`, []Issue{
			{Path: "plain.a", Message: "required field is missing"},
			{Path: "plain.b", Message: "required field is missing"},
			{Path: "plain.c", Message: "unknown field (not in the schema)"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.Validate(json.RawMessage(tt.value)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("issues:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestSharedLiteralIsNoDiscriminator: branches that share a literal value,
// or where one does not require the field, have no discriminator, so every
// branch is reported.
func TestSharedLiteralIsNoDiscriminator(t *testing.T) {
	for name, tt := range map[string]struct {
		schema string
		want   []Issue
	}{
		"shared value": {`{"oneOf": [
			{"type": "object", "properties": {"k": {"const": "x"}, "a": {"type": "string"}}, "required": ["k", "a"]},
			{"type": "object", "properties": {"k": {"enum": ["y", "x"]}, "b": {"type": "string"}}, "required": ["k", "b"]}]}`,
			[]Issue{{Path: "a", Message: "required field is missing"}, {Path: "b", Message: "required field is missing"}}},
		"not required": {`{"oneOf": [
			{"type": "object", "properties": {"k": {"const": "x"}, "a": {"type": "string"}}, "required": ["k", "a"]},
			{"type": "object", "properties": {"k": {"const": "y"}, "b": {"type": "string"}}, "required": ["b"]}]}`,
			[]Issue{{Path: "a", Message: "required field is missing"}, {Path: "b", Message: "required field is missing"}, {Path: "k", Message: "value must be 'y'"}}},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Compile(json.RawMessage(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			got := s.Validate(json.RawMessage(`{"k": "x"}`))
			if len(s.unions) != 0 || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("discriminators %v, issues:\n got %+v\nwant %+v", s.unions, got, tt.want)
			}
		})
	}
}
