package toml

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestParseValues(t *testing.T) {
	doc := strings.Join([]string{
		"# Models.dev style file",
		`name = "Claude Opus 4.6"`,
		`base_model="anthropic/claude-opus-4-6"`,
		`literal = 'C:\path'`,
		`escapes = "tab\there \"q\" \u00e9 \U0001F600"`,
		"ints = [1_000_000, -17, +3, 0, 0xff, 0o17, 0b101]",
		"floats = [5.00, 1e3, -2.5E-2, 6.626e-34, 3_1.4_1]",
		"specials = [inf, -inf]",
		"flags = { attachment = true, reasoning = false }",
		"dates = [1979-05-27T07:32:00Z, 1979-05-27 07:32:00.999, 1979-05-27, 07:32:00, 1979-05-27T00:32:00-07:00]",
		"nested = [[1, 2], [\"a\",], []]",
		"",
		"[limit]",
		"context = 1_000_000  # comment",
		"output = 128000",
		"",
		"[modalities]",
		`input = ["text", "image", "pdf"]`,
		`output = [`,
		`  "text", # trailing comma and comment`,
		`]`,
		"",
		"[experimental.modes.fast]",
		"provider.body.speed = \"fast\"",
		"",
		"[[benchmarks]]",
		`name = "a"`,
		"[[benchmarks]]",
		`name = "b"`,
		"[benchmarks.detail]",
		"x = 1",
		"",
		"[cost]",
		"tiers = [{ input = 1 }, { input = 2.5 }]",
	}, "\n")
	got, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"name":       "Claude Opus 4.6",
		"base_model": "anthropic/claude-opus-4-6",
		"literal":    `C:\path`,
		"escapes":    "tab\there \"q\" é 😀",
		"ints":       []any{int64(1000000), int64(-17), int64(3), int64(0), int64(255), int64(15), int64(5)},
		"floats":     []any{5.0, 1000.0, -0.025, 6.626e-34, 31.41},
		"specials":   []any{math.Inf(1), math.Inf(-1)},
		"flags":      map[string]any{"attachment": true, "reasoning": false},
		"dates": []any{DateTime("1979-05-27T07:32:00Z"), DateTime("1979-05-27 07:32:00.999"), DateTime("1979-05-27"),
			DateTime("07:32:00"), DateTime("1979-05-27T00:32:00-07:00")},
		"nested":       []any{[]any{int64(1), int64(2)}, []any{"a"}, []any{}},
		"limit":        map[string]any{"context": int64(1000000), "output": int64(128000)},
		"modalities":   map[string]any{"input": []any{"text", "image", "pdf"}, "output": []any{"text"}},
		"experimental": map[string]any{"modes": map[string]any{"fast": map[string]any{"provider": map[string]any{"body": map[string]any{"speed": "fast"}}}}},
		"benchmarks": []any{
			map[string]any{"name": "a"},
			map[string]any{"name": "b", "detail": map[string]any{"x": int64(1)}},
		},
		"cost": map[string]any{"tiers": []any{map[string]any{"input": int64(1)}, map[string]any{"input": 2.5}}},
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		t.Fatalf("got\n%s", g)
	}
}

func TestParseMultilineStrings(t *testing.T) {
	doc := "a = \"\"\"\nline1\nline2 \\\n    continued\"\"\"\n" +
		"b = '''\nraw \\n ''quoted'' '''\n" +
		"c = \"\"\"two quotes at the end\"\"\"\"\"\n" +
		"d = \"crlf\"\r\ne = 1\r\n"
	got, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a": "line1\nline2 continued",
		"b": "raw \\n ''quoted'' ",
		"c": `two quotes at the end""`,
		"d": "crlf",
		"e": int64(1),
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v", got)
	}
}

func TestParseQuotedAndDottedKeys(t *testing.T) {
	got, err := Parse([]byte("\"a.b\" = 1\n'c' . d = 2\n[x]\ny.z = 3\n[x.y.w]\nv = 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a.b": int64(1),
		"c":   map[string]any{"d": int64(2)},
		"x":   map[string]any{"y": map[string]any{"z": int64(3), "w": map[string]any{"v": int64(4)}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v", got)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ name, doc, msg string }{
		{"duplicate key", "a = 1\na = 2", "line 2, column 1: duplicate key a"},
		{"table twice", "[a]\n[a]", "line 2, column 1: table a is defined more than once"},
		{"header over dotted", "a.b = 1\n[a]", "table a is defined more than once"},
		{"extend inline", "a = {b = 1}\n[a.c]", "cannot extend inline table a"},
		{"dotted into inline", "a = {b = 1}\na.c = 2", "cannot add a.c: a is already defined"},
		{"dotted into header table", "[a.b]\n[a]\nb.c = 1", "cannot add b.c: b is already defined"},
		{"append to value array", "a = [1]\n[[a]]", "cannot append to a: it is not an array of tables"},
		{"missing value", "a =", "expected a value, found end of document"},
		{"bare path", "../../azure/models/gpt-5.5.toml", "expected a key"},
		{"leading zero", "a = 012", "invalid value \"012\""},
		{"bad underscore", "a = 1__0", "invalid value \"1__0\""},
		{"trailing underscore", "a = 10_", "invalid value"},
		{"float without int part", "a = .5", "invalid value"},
		{"bad escape", `a = "\x41"`, "invalid escape sequence"},
		{"newline in string", "a = \"x\ny\"", "newline in single-line string"},
		{"unterminated", `a = "x`, "unterminated string"},
		{"garbage after value", "a = 1 2", "expected end of line"},
		{"inline trailing comma", "a = {b = 1,}", "trailing comma in inline table"},
		{"inline newline", "a = {b = 1,\nc = 2}", "expected a key"},
		{"bare CR", "a = 1\rb = 2", "expected end of line"},
		{"invalid utf8", "a = \"\xff\"", "not valid UTF-8"},
		{"bad date", "a = 2026-13-01", "invalid value"},
		{"unclosed header", "[a", "expected \"]\" to close the table header"},
		{"array missing comma", "a = [1 2]", "expected ',' or ']' in array"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.doc))
			if err == nil {
				t.Fatalf("no error for %q", c.doc)
			}
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error %T is not a *ParseError", err)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %q does not contain %q", err, c.msg)
			}
		})
	}
}

func TestParseBOMAndEmpty(t *testing.T) {
	got, err := Parse([]byte("\xEF\xBB\xBFa = 1"))
	if err != nil || got["a"] != int64(1) {
		t.Fatalf("BOM: %v %v", got, err)
	}
	got, err = Parse(nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("empty: %v %v", got, err)
	}
}
