package wrappergen

import (
	"strings"
	"testing"
)

// typeText converts one schema on the given side, with the root named Root
// and the defs of root (if any) available to $ref.
func typeText(t *testing.T, side, schema string) (string, *SchemaError) {
	t.Helper()
	n, err := parseNode([]byte(schema))
	if err != nil {
		t.Fatalf("bad test schema %s: %v", schema, err)
	}
	c := &converter{side: side, root: n, rootName: "Root", defNames: map[string]string{}}
	collectDefs(n, "Root", newNameSet(), c.defNames)
	got := c.typeOf(n, "", 0)
	return got.text, c.err
}

func TestTypeExpressions(t *testing.T) {
	tests := []struct {
		name, side, schema, want string
	}{
		{"empty schema", "output", `{}`, "unknown"},
		{"true", "output", `true`, "unknown"},
		{"false", "output", `false`, "never"},
		{"z.never()", "output", `{"not":{}}`, "never"},
		{"other not only narrows", "output", `{"type":"string","not":{"const":"x"}}`, "string"},
		{"integer", "output", `{"type":"integer","minimum":0}`, "number"},
		{"type list", "output", `{"type":["string","integer","null"]}`, "string | number | null"},
		{"type list dedupes", "output", `{"type":["number","integer"]}`, "number"},
		{"enum beats type", "output", `{"type":"string","enum":["a","b"]}`, `"a" | "b"`},
		{"enum with null", "output", `{"enum":["a",null,1.5,-2]}`, `"a" | null | 1.5 | -2`},
		{"const", "output", `{"type":"boolean","const":false}`, "false"},
		{"const string escapes", "output", `{"const":"a\"b\\c\n<&>"}`, `"a\"b\\c\n<&>"`},
		{"const object", "output", `{"const":{"k":[1,"x"]}}`, "{\n  k: [1, \"x\"];\n}"},
		{"array of union", "output", `{"type":"array","items":{"type":["string","null"]}}`, "(string | null)[]"},
		{"array without items", "output", `{"type":"array"}`, "unknown[]"},
		{"empty tuple", "output", `{"type":"array","items":false}`, "[]"},
		{"open tuple", "output", `{"type":"array","prefixItems":[{"type":"string"}],"minItems":1}`, "[string, ...unknown[]]"},
		{"optional union element", "output", `{"type":"array","prefixItems":[{"anyOf":[{"type":"string"},{"type":"number"}]}],"items":false}`, "[(string | number)?]"},
		{"untyped object keywords", "output", `{"properties":{"a":{"type":"string"}},"required":["a"]}`, "{\n  a: string;\n}"},
		{"untyped array keywords", "output", `{"items":{"type":"number"}}`, "number[]"},
		{"closed empty input", "input", `{"type":"object","properties":{},"additionalProperties":false}`, "Record<string, never>"},
		{"closed empty output", "output", `{"type":"object","properties":{},"additionalProperties":false}`, "{}"},
		{"object without properties is a record", "output", `{"type":"object","additionalProperties":true}`, "Record<string, unknown>"},
		{"mixed enum-keyed record", "output",
			`{"type":"object","propertyNames":{"enum":["a","b"]},"additionalProperties":{"type":"number"},"required":["a"]}`,
			`Record<"a", number> & Partial<Record<"b", number>>`},
		{"const-keyed record", "output",
			`{"type":"object","propertyNames":{"const":"only"},"additionalProperties":{"type":"number"},"required":["only"]}`,
			`Record<"only", number>`},
		{"patternProperties open the object", "output",
			`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"patternProperties":{"^x":{"type":"number"}},"additionalProperties":false}`,
			"{\n  a: string;\n  [key: string]: number | string;\n}"},
		{"missing additionalProperties is closed", "input",
			`{"type":"object","properties":{"a":{"type":"string"}}}`, "{\n  a?: string;\n}"},
		{"allOf is an intersection", "output",
			`{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"anyOf":[{"type":"string"},{"type":"number"}]}]}`,
			"{\n  a: string;\n} & (string | number)"},
		{"union inside union flattens text", "output", `{"anyOf":[{"type":"string"},{"anyOf":[{"type":"number"},{"type":"null"}]}]}`, "string | number | null"},
		{"unknown absorbs union", "output", `{"anyOf":[{"type":"string"},{}]}`, "unknown"},
		{"never drops out of union", "output", `{"anyOf":[{"type":"string"},{"not":{}}]}`, "string"},
		{"self ref", "output", `{"type":"object","properties":{"next":{"$ref":"#"}}}`, "{\n  next?: Root;\n}"},
		{"defs ref", "output", `{"$defs":{"my-id":{"type":"string"}},"type":"array","items":{"$ref":"#/$defs/my-id"}}`, "RootMyId[]"},
		{"draft-7 definitions ref", "output", `{"definitions":{"x":{"type":"string"}},"$ref":"#/definitions/x"}`, "RootX"},
		{"escaped def key", "output", `{"$defs":{"a/b~c":{"type":"string"}},"$ref":"#/$defs/a~1b~0c"}`, "RootABC"},
		{"ref beside keywords intersects", "output", `{"$defs":{"o":{"type":"object","additionalProperties":true}},"$ref":"#/$defs/o","type":"object","properties":{"a":{"type":"number"}},"required":["a"]}`, "RootO & {\n  a: number;\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := typeText(t, tt.side, tt.schema)
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestUnexpressibleSchemasNameTheirPointer(t *testing.T) {
	tests := []struct {
		name, schema, pointer, message string
	}{
		{"remote ref", `{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`, "/properties/a/$ref", "unsupported $ref"},
		{"ref to missing def", `{"type":"array","items":{"$ref":"#/$defs/nope"}}`, "/items/$ref", `"#/$defs/nope"`},
		{"ref into properties", `{"type":"object","properties":{"a":{"type":"string"},"b":{"$ref":"#/properties/a"}}}`, "/properties/b/$ref", "unsupported $ref"},
		{"dynamic ref", `{"anyOf":[{"$dynamicRef":"#node"}]}`, "/anyOf/0/$dynamicRef", "$dynamicRef"},
		{"unknown type", `{"type":"object","properties":{"when":{"type":"date"}}}`, "/properties/when/type", `unknown type "date"`},
		{"unknown type in list", `{"type":["string","decimal"]}`, "/type/1", `unknown type "decimal"`},
		{"non-schema value", `{"type":"object","properties":{"a~b/c":5}}`, "/properties/a~0b~1c", "must be an object or a boolean"},
		{"anyOf not an array", `{"anyOf":{"type":"string"}}`, "/anyOf", "must be an array"},
		{"properties not an object", `{"type":"object","properties":[]}`, "/properties", "properties must be an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := typeText(t, "input", tt.schema)
			if err == nil {
				t.Fatal("no error")
			}
			if err.Pointer != tt.pointer || !strings.Contains(err.Message, tt.message) {
				t.Errorf("got pointer %q message %q; want pointer %q and a message containing %q", err.Pointer, err.Message, tt.pointer, tt.message)
			}
		})
	}
}

func TestDocComment(t *testing.T) {
	tests := []struct{ text, pad, want string }{
		{"", "  ", ""},
		{"   \n  ", "", ""},
		{"One line.", "  ", "  /** One line. */\n"},
		{"ends */ early", "", "/** ends *\\/ early */\n"},
		{"a/**/b */*/", "", "/** a/**\\/b *\\/*\\/ */\n"},
		{"two\r\nlines  \n\nthird", "  ", "  /**\n   * two\n   * lines\n   *\n   * third\n   */\n"},
		{"odd\rbreaks\u2028and\x00controls\ttab", "", "/**\n * odd\n * breaks\n * and controls\ttab\n */\n"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := docComment(tt.text, tt.pad); got != tt.want {
				t.Errorf("docComment(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestPropertyDocs(t *testing.T) {
	root := `{"$defs":{"Pid":{"type":"string","description":"Process id."}},"type":"object","properties":{
		"own":{"type":"string","description":"Own."},
		"nullable":{"anyOf":[{"type":"string","description":"Inner."},{"type":"null"}]},
		"ambiguous":{"anyOf":[{"type":"string","description":"A."},{"type":"number","description":"B."}]},
		"ref":{"$ref":"#/$defs/Pid"},
		"refOwn":{"$ref":"#/$defs/Pid","description":"Mine."},
		"dflt":{"type":"object","default":{"a":"*/"}},
		"none":{"type":"string"}}}`
	n, err := parseNode([]byte(root))
	if err != nil {
		t.Fatal(err)
	}
	c := &converter{root: n}
	want := map[string]string{
		"own": "Own.", "nullable": "Inner.", "ambiguous": "", "ref": "Process id.", "refOwn": "Mine.",
		"dflt": `@default {"a":"*/"}`, "none": "",
	}
	for _, m := range n.get("properties").members {
		if got := c.docText(m.value); got != want[m.key] {
			t.Errorf("%s: doc %q, want %q", m.key, got, want[m.key])
		}
	}
}

func TestPropertyKeys(t *testing.T) {
	for key, want := range map[string]string{
		"plain": "plain", "_x$1": "_x$1", "my-key": `"my-key"`, "2fa": `"2fa"`, "": `""`,
		"café": `"café"`, "with space": `"with space"`, `q"uote`: `"q\"uote"`,
	} {
		if got := propertyKey(key); got != want {
			t.Errorf("propertyKey(%q) = %s, want %s", key, got, want)
		}
	}
}

func TestParseNodeKeepsOrderAndNumbers(t *testing.T) {
	n, err := parseNode([]byte(`{"z":1,"a":{"y":1e3,"b":-0.50},"m":[true,null,"s"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := compactJSON(n); got != `{"z":1,"a":{"y":1e3,"b":-0.50},"m":[true,null,"s"]}` {
		t.Errorf("round trip changed the document: %s", got)
	}
	for _, bad := range []string{``, `{`, `{"a":1} {}`, `[1,]`} {
		if _, err := parseNode([]byte(bad)); err == nil {
			t.Errorf("parseNode(%q) accepted invalid JSON", bad)
		}
	}
}
