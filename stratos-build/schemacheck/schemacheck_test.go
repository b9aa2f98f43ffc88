package schemacheck

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// want is the part of a Violation a table row pins down: side, path, code
// and (for schema_unrepresentable) kind, in Check's order.
type want struct{ side, path, pointer, code, kind string }

func summarize(vs []Violation) []want {
	var out []want
	for _, v := range vs {
		out = append(out, want{v.Side, v.Path, v.Pointer, v.Code, v.Kind})
	}
	return out
}

func assertViolations(t *testing.T, workflow string, got []Violation, expected []want) {
	t.Helper()
	g := summarize(got)
	if len(g) != len(expected) {
		t.Errorf("got %d violations, want %d:\n%s", len(g), len(expected), dump(got))
		return
	}
	for i := range g {
		if g[i] != expected[i] {
			t.Errorf("violation %d: got %+v, want %+v\nall:\n%s", i, g[i], expected[i], dump(got))
		}
	}
	for _, v := range got {
		if v.Workflow != workflow || !strings.HasPrefix(v.Message, `workflow "`+workflow+`": `+v.Path+": ") {
			t.Errorf("message does not name the workflow and path: %q", v.Message)
		}
	}
}

func dump(vs []Violation) string {
	var b strings.Builder
	for _, v := range vs {
		b.WriteString("  " + v.Code + " " + v.Path + " (" + v.Pointer + ") " + v.Kind + "\n")
	}
	return b.String()
}

// loadFixture reads testdata/zod/<name>.json: a definition exactly as zod
// 4.6.7 emits it, written by testdata/zod/generate.mjs (the zod source that
// produced it is in the file's "zod" member).
func loadFixture(t testing.TB, name string) Definition {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "zod", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var d Definition
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return d
}

// TestZodDefinitions checks definitions converted by real zod.
func TestZodDefinitions(t *testing.T) {
	const (
		in  = SideInput
		out = SideOutput
	)
	tests := []struct {
		fixture string
		want    []want
	}{
		// Nested strict objects, described fields (also ""), a nullable field
		// described before .nullable(), a record, a discriminated union; an
		// output with a plain and a loose object and an "overrides" field.
		{"conforming", nil},
		{"not-objects", []want{
			{in, "input", "", CodeSchemaNotObject, ""},
			{out, "output", "", CodeSchemaNotObject, ""},
		}},
		{"union-input", []want{
			{in, "input", "", CodeSchemaNotObject, ""},
		}},
		// Only top-level fields need a description; nested ones (in
		// objects, arrays, records, union branches, tuples, $defs) do not.
		{"undescribed", []want{
			{in, "input.options", "/properties/options", CodeFieldUndescribed, ""},
			{in, "input.top", "/properties/top", CodeFieldUndescribed, ""},
			{in, `input["odd key"]`, "/properties/odd key", CodeFieldUndescribed, ""},
			// pid's $defs entry has no description; other's has one.
			{out, "output.pid", "/properties/pid", CodeFieldUndescribed, ""},
		}},
		// A discriminated union output: its discriminator (const in one
		// branch, enum in the other) needs no description, its other
		// top-level fields do; nested fields need none on either side.
		{"union-output", []want{
			{out, "output<oneOf 1>.reason", "/oneOf/1/properties/reason", CodeFieldUndescribed, ""},
		}},
		// A z.union of objects whose shared literal does not tell them
		// apart: every top-level field of each branch needs a description.
		{"union-output-plain", []want{
			{out, "output<anyOf 0>.kind", "/anyOf/0/properties/kind", CodeFieldUndescribed, ""},
			{out, "output<anyOf 1>.b", "/anyOf/1/properties/b", CodeFieldUndescribed, ""},
			{out, "output<anyOf 1>.kind", "/anyOf/1/properties/kind", CodeFieldUndescribed, ""},
		}},
		{"union-output-not-objects", []want{
			{out, "output<anyOf 0>", "/anyOf/0", CodeSchemaNotObject, ""},
		}},
		{"overrides-field", []want{
			{in, "input.overrides", "/properties/overrides", CodeInputOverridesReserved, ""},
		}},
		{"not-strict", []want{
			{in, "input", "", CodeInputNotStrict, ""},
			{in, "input.catchall", "/properties/catchall", CodeInputNotStrict, ""},
			{in, "input.either", "/properties/either/anyOf/0", CodeInputNotStrict, ""},
			{in, "input.items[]", "/properties/items/items", CodeInputNotStrict, ""},
			{in, "input.loose", "/properties/loose", CodeInputNotStrict, ""},
			{in, "input.plain", "/properties/plain", CodeInputNotStrict, ""},
			{in, "input.record{}", "/properties/record/additionalProperties", CodeInputNotStrict, ""},
		}},
		{"unrepresentable", []want{
			{in, "input.items[]", "/properties/items/items", CodeSchemaUnrepresentable, "custom"},
			{in, "input.options.id", "/properties/options/properties/id", CodeSchemaUnrepresentable, "bigint"},
			{in, "input.options.name", "/properties/options/properties/name", CodeSchemaUnrepresentable, "refine"},
			{in, "input.parsed", "/properties/parsed", CodeSchemaUnrepresentable, "transform"},
			{in, "input.when", "/properties/when", CodeSchemaUnrepresentable, "date"},
			{out, "output.at", "/properties/at", CodeSchemaUnrepresentable, "date"},
			{out, "output.length", "/properties/length", CodeSchemaUnrepresentable, "transform"},
		}},
		{"everything-wrong", []want{
			{in, "input", "", CodeInputNotStrict, ""},
			{in, "input.overrides", "/properties/overrides", CodeFieldUndescribed, ""},
			{in, "input.overrides", "/properties/overrides", CodeInputOverridesReserved, ""},
			{in, "input.when", "/properties/when", CodeFieldUndescribed, ""},
			{in, "input.when", "/properties/when", CodeSchemaUnrepresentable, "date"},
			{out, "output", "", CodeSchemaNotObject, ""},
		}},
	}
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "zod", "*.json"))
	if len(fixtures) != len(tests) {
		t.Errorf("%d fixtures in testdata/zod but %d table rows: give every fixture a row", len(fixtures), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			assertViolations(t, tt.fixture, Check(tt.fixture, loadFixture(t, tt.fixture)), tt.want)
		})
	}
}

// TestHandWrittenSchemas covers shapes zod does not emit by default but a
// definition can still carry (draft-7 definitions, unused defs, booleans).
func TestHandWrittenSchemas(t *testing.T) {
	const strictEmpty = `{"type":"object","properties":{},"additionalProperties":false}`
	tests := []struct {
		name          string
		input, output string
		unrep         []Unrepresentable
		want          []want
	}{
		{"missing sides", "", " ", nil, []want{
			{"input", "input", "", CodeSchemaNotObject, ""},
			{"output", "output", "", CodeSchemaNotObject, ""},
		}},
		{"invalid JSON", `{"type":`, `true`, nil, []want{
			{"input", "input", "", CodeSchemaNotObject, ""},
			{"output", "output", "", CodeSchemaNotObject, ""},
		}},
		{"nullable object root is an object", `{"type":["object","null"],"properties":{"a":{"type":"string"}}}`, strictEmpty, nil, []want{
			{"input", "input", "", CodeInputNotStrict, ""},
			{"input", "input.a", "/properties/a", CodeFieldUndescribed, ""},
		}},
		{"untyped object with properties", `{"properties":{"a":{"description":""}},"additionalProperties":false}`, strictEmpty, nil, nil},
		{"union of described branches counts as described",
			`{"type":"object","properties":{"u":{"anyOf":[{"type":"string","description":"s"},{"type":"number","description":""},{"type":"null"}]},
			"v":{"anyOf":[{"type":"string","description":"s"},{"type":"number"}]},"n":{"anyOf":[{"type":"null"}]}},"additionalProperties":false}`,
			strictEmpty, nil, []want{
				{"input", "input.n", "/properties/n", CodeFieldUndescribed, ""},
				{"input", "input.v", "/properties/v", CodeFieldUndescribed, ""},
			}},
		{"draft-7 definitions, unused defs and recursion",
			`{"type":"object","properties":{"self":{"$ref":"#","description":""},"d":{"$ref":"#/definitions/D"}},"additionalProperties":false,
			"definitions":{"D":{"type":"object","properties":{"x":{"type":"number"}},"description":"d"},"Unused":{"type":"object","properties":{"y":{"type":"number"}}}}}`,
			strictEmpty, nil, []want{
				{"input", "input.d", "/definitions/D", CodeInputNotStrict, ""},
				{"input", "input.definitions.Unused", "/definitions/Unused", CodeInputNotStrict, ""},
			}},
		{"union output branches through $ref, described or not", strictEmpty,
			`{"$defs":{"A":{"type":"object","properties":{"t":{"const":"a"},"x":{"type":"string"}},"required":["t","x"]},
			"B":{"type":"object","properties":{"t":{"const":"b"},"y":{"type":"string","description":""}},"required":["t"]}},
			"oneOf":[{"$ref":"#/$defs/A"},{"$ref":"#/$defs/B"}]}`, nil, []want{
				{"output", "output<oneOf 0>.x", "/$defs/A/properties/x", CodeFieldUndescribed, ""},
			}},
		{"a discriminator must be required in every branch", strictEmpty,
			`{"anyOf":[{"type":"object","properties":{"t":{"const":"a"}},"required":["t"]},{"type":"object","properties":{"t":{"const":"b"}}}]}`, nil, []want{
				{"output", "output<anyOf 0>.t", "/anyOf/0/properties/t", CodeFieldUndescribed, ""},
				{"output", "output<anyOf 1>.t", "/anyOf/1/properties/t", CodeFieldUndescribed, ""},
			}},
		{"nullable output root", strictEmpty, `{"anyOf":[{"type":"object","properties":{}},{"type":"null"}]}`, nil, []want{
			{"output", "output<anyOf 1>", "/anyOf/1", CodeSchemaNotObject, ""},
		}},
		{"union roots with a type or both keywords are not unions of objects", strictEmpty,
			`{"type":"string","anyOf":[{"type":"object"}]}`, nil, []want{
				{"output", "output", "", CodeSchemaNotObject, ""},
			}},
		{"ref cycles end", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},"additionalProperties":false}`,
			strictEmpty, nil, []want{
				{"input", "input.x", "/properties/x", CodeFieldUndescribed, ""},
			}},
		{"pattern properties and boolean schemas", strictEmpty,
			`{"type":"object","properties":{"t":true},"patternProperties":{"^x":{"type":"object","properties":{"q":{}}}}}`, nil, []want{
				{"output", "output.t", "/properties/t", CodeFieldUndescribed, ""},
			}},
		{"unrepresentable pointers", `{"type":"object","properties":{"a/b":{"type":"array","items":{"description":""},"description":""},
			"t":{"type":"array","prefixItems":[{"description":""}],"description":""},"n":{"anyOf":[{"description":""},{"type":"null"}],"description":""}},"additionalProperties":false}`,
			`{"$defs":{"D":{"type":"object","properties":{"when":{"description":""}},"additionalProperties":false}},"type":"object",
			"properties":{"u":{"$ref":"#/$defs/D","description":""}},"additionalProperties":false}`,
			[]Unrepresentable{
				{Side: "input", Path: "", Kind: "transform"},
				{Side: "input", Path: "/properties/a~1b/items", Kind: "date"},
				{Side: "input", Path: "/properties/t/prefixItems/0", Kind: "date"},
				{Side: "input", Path: "/properties/n/anyOf/0", Kind: "custom"},
				{Side: "input", Path: "/properties/n/anyOf/7", Kind: "custom"},
				{Side: "input", Path: "/properties/t/prefixItems/0", Kind: "date"}, // reported twice
				{Side: "output", Path: "/$defs/D/properties/when", Kind: "date"},
				{Side: "output", Path: "/properties/missing/not", Kind: "nan"},
				{Side: "output", Path: "properties", Kind: "map"},
			},
			[]want{
				{"input", "input", "", CodeSchemaUnrepresentable, "transform"},
				{"input", "input.n", "/properties/n/anyOf/0", CodeSchemaUnrepresentable, "custom"},
				{"input", "input.n<anyOf 7>", "/properties/n/anyOf/7", CodeSchemaUnrepresentable, "custom"},
				{"input", "input.t[0]", "/properties/t/prefixItems/0", CodeSchemaUnrepresentable, "date"},
				{"input", `input["a/b"][]`, "/properties/a~1b/items", CodeSchemaUnrepresentable, "date"},
				{"output", "output.missing<not>", "/properties/missing/not", CodeSchemaUnrepresentable, "nan"},
				{"output", "output.u.when", "/$defs/D/properties/when", CodeSchemaUnrepresentable, "date"},
				{"output", "output<properties>", "properties", CodeSchemaUnrepresentable, "map"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def := Definition{Input: json.RawMessage(tt.input), Output: json.RawMessage(tt.output), Unrepresentable: tt.unrep}
			assertViolations(t, "hand", Check("hand", def), tt.want)
		})
	}
}

func TestMessagesExplainTheFix(t *testing.T) {
	vs := Check("review-pr", loadFixture(t, "everything-wrong"))
	byCode := map[string]string{}
	for _, v := range vs {
		byCode[v.Code+" "+v.Path] = v.Message
	}
	for key, want := range map[string]string{
		"input_not_strict input":                   "z.strictObject({...})",
		"field_undescribed input.when":             `.describe("…")`,
		"input_overrides_reserved input.overrides": `"overrides" is reserved`,
		"schema_unrepresentable input.when":        "z.iso.datetime()",
		"schema_not_object output":                 `not type "number"`,
	} {
		if msg, ok := byCode[key]; !ok || !strings.Contains(msg, want) {
			t.Errorf("%s: message %q lacks %q", key, msg, want)
		}
	}
	vs = append(Check("review-pr", loadFixture(t, "union-input")), Check("review-pr", loadFixture(t, "union-output-not-objects"))...)
	vs = append(vs, Check("review-pr", loadFixture(t, "union-output"))...)
	byCode = map[string]string{}
	for _, v := range vs {
		byCode[v.Code+" "+v.Path] = v.Message
	}
	for key, want := range map[string]string{
		"schema_not_object input":                  "MCP requires a tool's input to be an object",
		"schema_not_object output<anyOf 0>":        `branch 0 of the output union is type "string", but every branch of a union output must be an object, as in z.discriminatedUnion(`,
		"field_undescribed output<oneOf 1>.reason": "nested fields need none",
	} {
		if msg, ok := byCode[key]; !ok || !strings.Contains(msg, want) {
			t.Errorf("%s: message %q lacks %q", key, msg, want)
		}
	}
}

func TestViolationJSON(t *testing.T) {
	vs := Check("wf", loadFixture(t, "unrepresentable"))
	b, err := json.Marshal(vs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"workflow":"wf"`, `"side":"input"`, `"path":"input.items[]"`, `"pointer":"/properties/items/items"`, `"code":"schema_unrepresentable"`, `"kind":"custom"`, `"message":`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON %s lacks %s", b, key)
		}
	}
	b, _ = json.Marshal(Check("wf", loadFixture(t, "overrides-field"))[0])
	if strings.Contains(string(b), `"kind"`) {
		t.Errorf("kind should be omitted when empty: %s", b)
	}
}
