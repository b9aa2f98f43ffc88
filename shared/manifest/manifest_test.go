package manifest

import (
	"strings"
	"testing"
)

func codes(ps []Problem) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Field+":"+p.Code)
	}
	return strings.Join(out, ",")
}

func TestParseValid(t *testing.T) {
	m, ps := Parse("/r/wf", "/r/wf/workflow.yaml", []byte("name: wf\nshortDescription: S\nlongDescription: L\nagents:\n  a:\n    model: x\n"))
	if len(ps) != 0 {
		t.Fatalf("problems: %v", ps)
	}
	if m.Name != "wf" || m.Entrypoint != DefaultEntrypoint || m.Sections["agents"] == nil {
		t.Fatalf("manifest = %+v", m)
	}
}

func TestCodePointLimits(t *testing.T) {
	ok := strings.Repeat("é", MaxShortDescriptionLength) // 400 bytes
	_, ps := Parse("d", "f", []byte("name: a\nshortDescription: "+ok+"\nlongDescription: L\n"))
	if len(ps) != 0 {
		t.Fatalf("200 code points rejected: %v", ps)
	}
	long := strings.Repeat("😀", MaxLongDescriptionLength+1)
	_, ps = Parse("d", "f", []byte("name: a\nshortDescription: s\nlongDescription: "+long+"\n"))
	if len(ps) != 1 || ps[0].Code != CodeTooLong || *ps[0].Actual != 8001 || *ps[0].Max != 8000 || ps[0].Field != "longDescription" {
		t.Fatalf("problems = %+v", ps)
	}
}

// A YAML syntax error names its line counted from 1 (yaml.v3 counts its
// parser's errors from 0): here the sequence on line 3 in which the entry
// on line 4 lacks its '-'.
func TestInvalidYAMLNamesItsLine(t *testing.T) {
	_, ps := Parse("d", "workflow.yaml", []byte("name: a\nagents:\n  - x\n  y: 1\n"))
	want := "workflow.yaml: invalid YAML: yaml: line 3: did not find expected '-' indicator"
	if len(ps) != 1 || ps[0].Message != want {
		t.Fatalf("problems = %+v, want one: %s", ps, want)
	}
}

func TestProblems(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"", ":manifest_invalid_yaml"},
		{"- a\n- b\n", ":manifest_invalid_yaml"},
		{"name: [\n", ":manifest_invalid_yaml"},
		{"name: a\n", "shortDescription:field_required,longDescription:field_required"},
		{"name: a\nshortDescription: ~\nlongDescription: L\n", "shortDescription:field_required"},
		{"name: 7\nshortDescription: s\nlongDescription: L\n", "name:field_type"},
		{"name: 1abc\nshortDescription: s\nlongDescription: L\n", "name:name_invalid"},
		{"name: a_b\nshortDescription: s\nlongDescription: L\n", "name:name_invalid"},
		{"name: " + strings.Repeat("a", 65) + "\nshortDescription: s\nlongDescription: L\n", "name:name_invalid"},
		{"name: " + strings.Repeat("a", 64) + "\nshortDescription: s\nlongDescription: L\n", ""},
		{"name: a\nshortDescription: \" \\t\"\nlongDescription: L\n", "shortDescription:field_blank"},
		{"name: a\nshortDescription: \"a\\u2028b\"\nlongDescription: L\n", "shortDescription:field_multiline"},
		{"name: a\nshortDescription: s\nlongDescription: |\n  two\n\n  paragraphs are fine here\n", ""},
		{"name: a\nshortDescription: s\nlongDescription: L\nentrypoint: src/x.ts\n", ""},
		{"name: a\nshortDescription: s\nlongDescription: L\nentrypoint: x.d.ts\n", "entrypoint:entrypoint_invalid"},
		{"name: a\nshortDescription: s\nlongDescription: L\nentrypoint: dist/x.ts\n", "entrypoint:entrypoint_invalid"},
		{"name: a\nshortDescription: s\nlongDescription: L\nentrypoint: a/../../x.ts\n", "entrypoint:entrypoint_invalid"},
		{"name: a\nshortDescription: s\nlongDescription: L\nextra: 1\n", "extra:unknown_field"},
	}
	for _, c := range cases {
		t.Run(c.yaml, func(t *testing.T) {
			_, ps := Parse("d", "f", []byte(c.yaml))
			if got := codes(ps); got != c.want {
				t.Errorf("Parse(%q) problems = %q, want %q", c.yaml, got, c.want)
			}
		})
	}
}

// A field given twice is refused, naming both lines, once however often it
// is repeated: yaml.v3 does not check duplicate keys when it decodes into a
// node, and the later value won silently (the workflow was built as dup2).
func TestDuplicateFieldIsRefused(t *testing.T) {
	m, ps := Parse("d", "workflow.yaml", []byte("name: dup\nshortDescription: s\nname: dup2\nlongDescription: L\n"))
	want := `workflow.yaml: invalid YAML: line 3: field "name" is given twice (first on line 1)`
	if len(ps) != 1 || ps[0].Message != want || ps[0].Field != "name" || ps[0].Code != CodeInvalidYAML {
		t.Fatalf("problems = %+v, want one: %s", ps, want)
	}
	if m.Name != "" {
		t.Fatalf("name = %q, want none (neither value is taken)", m.Name)
	}
	_, ps = Parse("d", "workflow.yaml", []byte("name: a\nshortDescription: s\nlongDescription: L\nagents: {}\nagents: {}\nagents: {}\n"))
	if codes(ps) != "agents:manifest_invalid_yaml" {
		t.Fatalf("problems = %+v, want one for agents", ps)
	}
}

// An empty file says so; yaml.v3's own word for it is "EOF".
func TestEmptyFileSaysSo(t *testing.T) {
	for _, data := range []string{"", "\n", "# only a comment\n"} {
		_, ps := Parse("d", "workflow.yaml", []byte(data))
		if len(ps) != 1 || ps[0].Code != CodeInvalidYAML || !strings.Contains(ps[0].Message, "workflow.yaml: is empty") {
			t.Fatalf("%q: problems = %+v", data, ps)
		}
	}
}
